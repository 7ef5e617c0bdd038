#include "tuner/measure/verified_best.h"

#include <algorithm>
#include <map>
#include <memory>
#include <utility>

#include "absl/strings/str_cat.h"
#include "compiler/space/config_json.h"
#include "runtime/core/thread_pool.h"
#include "runtime/measure/canary.h"
#include "runtime/measure/host_timing_lock.h"
#include "runtime/measure/timed_module.h"
#include "runtime/time_evaluator.h"
#include "tuner/measure/local_builder.h"
#include "tuner/record_json.h"

namespace tunefarm::tuner {
namespace {

namespace rm = runtime::measure;

// The fastest distinct configs of the successful records, each with its best median.
std::vector<VerifiedConfig> FastestConfigs(const std::vector<Record>& records, int top) {
  std::map<std::string, double> best;
  for (const Record& r : records) {
    if (r.error_kind != ErrorKind::kOk) continue;
    std::optional<double> median = MedianSeconds(r.repeat_seconds);
    if (!median || *median <= 0) continue;
    auto [it, added] = best.emplace(r.config_json, *median);
    if (!added) it->second = std::min(it->second, *median);
  }
  std::vector<VerifiedConfig> out;
  for (const auto& [config, seconds] : best) out.push_back({config, seconds, 0});
  std::sort(out.begin(), out.end(), [](const VerifiedConfig& a, const VerifiedConfig& b) {
    return a.recorded_seconds < b.recorded_seconds;
  });
  if (static_cast<int>(out.size()) > std::max(top, 1)) out.resize(std::max(top, 1));
  return out;
}

}  // namespace

std::vector<std::string> VerificationPlan::Configs() const {
  std::vector<std::string> configs = {default_config.config_json};
  for (const VerifiedConfig& c : candidates) configs.push_back(c.config_json);
  return configs;
}

absl::StatusOr<VerificationPlan> PlanVerification(const std::vector<Record>& records,
                                                  const Task& task, const std::string& device_key,
                                                  int top) {
  VerificationPlan plan;
  plan.candidates = FastestConfigs(records, top);
  if (plan.candidates.empty()) {
    return absl::NotFoundError(
        absl::StrCat("no successful record of ", task.key(), " on ", device_key, " to verify"));
  }
  absl::StatusOr<space::Config> def = task.DefaultConfig();
  if (!def.ok()) return def.status();
  // Records hold configs in canonical form (keys sorted): compare the default's in that form.
  absl::StatusOr<std::string> canonical = CanonicalConfigJson(space::ConfigToJson(*def));
  if (!canonical.ok()) return canonical.status();
  plan.default_config.config_json = *std::move(canonical);
  for (const Record& r : records) {
    if (r.error_kind != ErrorKind::kOk || r.config_json != plan.default_config.config_json) {
      continue;
    }
    const double median = MedianSeconds(r.repeat_seconds).value_or(0);
    double& recorded = plan.default_config.recorded_seconds;
    if (median > 0 && (recorded == 0 || median < recorded)) recorded = median;
  }
  return plan;
}

absl::StatusOr<std::unique_ptr<BuiltConfigs>> BuiltConfigs::Build(
    const Task& task, const std::vector<std::string>& configs, const std::string& work_dir_parent) {
  LocalBuilderOptions options;
  options.work_dir_parent = work_dir_parent;
  options.measure.check_correctness = false;  // every candidate passed when it was recorded
  options.measure.build_timeout_s = 120;
  std::unique_ptr<BuiltConfigs> built(new BuiltConfigs);
  absl::StatusOr<std::unique_ptr<LocalBuilder>> builder = LocalBuilder::Create(options);
  if (!builder.ok()) return builder.status();
  built->builder_ = *std::move(builder);
  std::vector<MeasureInput> inputs;
  for (const std::string& json : configs) {
    absl::StatusOr<space::Config> config = space::ConfigFromJson(task.space(), json);
    if (!config.ok()) {
      return absl::InvalidArgumentError(
          absl::StrCat("config ", json, ": ", config.status().message()));
    }
    inputs.push_back({&task, *std::move(config)});
  }
  built->libraries_ = built->builder_->Build(inputs);
  for (size_t i = 0; i < built->libraries_.size(); ++i) {
    const BuildResult& r = built->libraries_[i];
    if (r.error_kind != ErrorKind::kOk) {
      return absl::InternalError(
          absl::StrCat("config ", configs[i], " did not build: ", r.error_message));
    }
  }
  return built;
}

BuiltConfigs::~BuiltConfigs() = default;

VerifiedBest ConcludeVerification(VerificationPlan plan, const rm::InterleavedTiming& timing) {
  VerifiedBest out;
  out.candidates = std::move(plan.candidates);
  out.default_config = std::move(plan.default_config);
  out.default_config.retimed_seconds = runtime::Summarize(timing.seconds[0]).median;
  for (size_t i = 0; i < out.candidates.size(); ++i) {
    out.candidates[i].retimed_seconds = runtime::Summarize(timing.seconds[i + 1]).median;
    if (timing.over_first[i + 1].ratio < timing.over_first[out.winner + 1].ratio) {
      out.winner = static_cast<int>(i);
    }
  }
  out.winner_over_default = timing.over_first[out.winner + 1];
  return out;
}

absl::StatusOr<ConfigTiming> TimeConfigsInterleaved(const Task& task,
                                                    const std::vector<std::string>& configs,
                                                    const VerifyOptions& options) {
  absl::StatusOr<std::unique_ptr<BuiltConfigs>> built =
      BuiltConfigs::Build(task, configs, options.work_dir_parent);
  if (!built.ok()) return built.status();
  std::vector<std::unique_ptr<rm::TimedModule>> modules;
  for (const BuildResult& r : (*built)->libraries()) {
    absl::StatusOr<std::unique_ptr<rm::TimedModule>> m =
        rm::TimedModule::Load(r.library_path, r.function_name, {}, /*seed=*/1);
    if (!m.ok()) return m.status();
    modules.push_back(*std::move(m));
  }
  std::string error;
  if (!runtime::SetNumThreads(options.threads, &error)) return absl::InvalidArgumentError(error);
  ConfigTiming out;
  absl::StatusOr<rm::HostTimingLock> turn =
      rm::HostTimingLock::Acquire(rm::HostTimingLock::Mode::kTiming, 120);
  if (turn.ok()) {
    out.timed_alone = turn->held() || turn->off();
    if (!turn->held()) out.timing_note = turn->reason();
  } else {
    out.timing_note = std::string(turn.status().message());
  }
  std::vector<std::function<absl::Status()>> calls;
  for (auto& m : modules) calls.push_back([&m] { return m->Run(); });
  rm::Canary canary;
  rm::InterleavedOptions interleaved = options.interleaved;
  if (interleaved.canary == nullptr) interleaved.canary = &canary;
  absl::StatusOr<rm::InterleavedTiming> timing = rm::TimeInterleaved(calls, interleaved);
  if (!timing.ok()) return timing.status();
  out.timing = *std::move(timing);
  return out;
}

absl::StatusOr<VerifiedBest> VerifyBest(RecordStore& store, const Task& task,
                                        const std::string& device_key,
                                        const VerifyOptions& options) {
  absl::StatusOr<std::vector<Record>> records =
      store.TaskRecords(task.key(), task.target().str(), device_key, CacheFlush::kNone);
  if (!records.ok()) return records.status();
  absl::StatusOr<VerificationPlan> plan = PlanVerification(*records, task, device_key, options.top);
  if (!plan.ok()) return plan.status();
  absl::StatusOr<ConfigTiming> timed = TimeConfigsInterleaved(task, plan->Configs(), options);
  if (!timed.ok()) return timed.status();
  VerifiedBest out = ConcludeVerification(*std::move(plan), timed->timing);
  out.timed_alone = timed->timed_alone;
  out.timing_note = timed->timing_note;
  return out;
}

}  // namespace tunefarm::tuner
