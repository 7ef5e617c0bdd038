#include "tracker/job_runner.h"

#include <algorithm>
#include <utility>

#include "absl/strings/str_cat.h"
#include "compiler/ir/type_names.h"
#include "runtime/core/abbreviate.h"
#include "spdlog/spdlog.h"
#include "tuner/search/strategy_factory.h"
#include "tuner/templates/script_template.h"
#include "tuner/templates/template_registry.h"
#include "tuner/tuning_loop.h"
#include "tuner/workload.h"

namespace tunefarm::tracker {
namespace {

absl::Status Invalid(const std::string& message) { return absl::InvalidArgumentError(message); }

}  // namespace

absl::Status ValidateJobSpec(const JobSpec& spec, int max_trials) {
  if (spec.workload.empty() == spec.script_source.empty()) {
    return Invalid("give exactly one of a workload key and a script source");
  }
  if (spec.device_key.empty()) {
    return Invalid("device_key is empty: name the kind of device to measure on");
  }
  if (spec.trials < 1 || spec.trials > max_trials) {
    return Invalid(absl::StrCat("trials must be in 1..", max_trials, ", got ", spec.trials));
  }
  if (spec.priority < 1 || spec.priority > 100) {
    return Invalid(absl::StrCat("priority must be in 1..100, got ", spec.priority));
  }
  if (spec.batch_size <= 0) {
    return Invalid(absl::StrCat("batch_size must be > 0, got ", spec.batch_size));
  }
  if (spec.early_stopping < 0) {
    return Invalid(absl::StrCat("early_stopping must be >= 0, got ", spec.early_stopping));
  }
  // Checked for every job, a script's too (its own dtype= arguments name its types), so a typo
  // is never silently ignored.
  if (!ir::ParseElementType(spec.dtype)) {
    return Invalid(absl::StrCat("dtype '", runtime::Abbreviate(spec.dtype),
                                "' is not a known element type; known: ", ir::ElementTypeNames()));
  }
  if (spec.script_name.size() > kMaxScriptNameBytes) {
    return Invalid(absl::StrCat("script_name is ", spec.script_name.size(),
                                " bytes long, over the limit of ", kMaxScriptNameBytes,
                                " (it names the workload key: give the file's name)"));
  }
  return tuner::ValidateMeasureOptions(spec.measure);
}

absl::StatusOr<std::unique_ptr<tuner::Task>> MakeJobTask(const JobSpec& spec) {
  absl::StatusOr<std::unique_ptr<tuner::Task>> task = absl::UnknownError("unset");
  if (!spec.workload.empty()) {
    absl::StatusOr<tuner::Workload> w = tuner::ParseWorkloadKey(spec.workload);
    if (!w.ok()) return Invalid(absl::StrCat("workload: ", w.status().message()));
    // A key without its dtype part takes the spec's.
    if (std::count(spec.workload.begin(), spec.workload.end(), ':') == 1 && !spec.dtype.empty()) {
      w->dtype = spec.dtype;
    }
    task = tuner::CreateTask(*w, spec.target);
  } else {
    const std::string name = spec.script_name.empty() ? "script" : spec.script_name;
    task = tuner::CreateScriptTask(name, spec.script_source, spec.bindings, spec.target);
  }
  if (!task.ok()) return Invalid(std::string(task.status().message()));
  return task;
}

absl::StatusOr<JobProgress> JobProgressFromStore(tuner::RecordStore& store,
                                                 const std::string& job_id,
                                                 const std::string& workload_key,
                                                 const std::string& target,
                                                 const std::string& device_key) {
  absl::StatusOr<std::vector<tuner::Record>> history = store.JobHistory(job_id);
  if (!history.ok()) return history.status();
  JobProgress p;
  for (const tuner::Record& r : *history) {
    ++p.trials_done;
    if (r.error_kind != tuner::ErrorKind::kOk) {
      ++p.errors;
      ++p.error_counts[std::string(tuner::ErrorKindName(r.error_kind))];
    }
  }
  absl::StatusOr<std::optional<tuner::Record>> best =
      store.Best({workload_key, target, device_key, std::nullopt});
  if (!best.ok()) return best.status();
  if (best->has_value()) {
    p.best_seconds = tuner::MedianSeconds((*best)->repeat_seconds).value_or(0);
    p.best_config_json = (*best)->config_json;
    absl::StatusOr<std::optional<double>> flops = store.WorkloadFlops(workload_key);
    if (flops.ok() && flops->has_value() && p.best_seconds > 0) {
      p.best_gflops = **flops / p.best_seconds / 1e9;
    }
  }
  return p;
}

JobRunOutcome RunJob(const std::string& job_id, const JobSpec& spec,
                     std::unique_ptr<tuner::Task> task, const JobRunContext& context,
                     const std::atomic<bool>& stop, const JobRunHooks& hooks) {
  JobRunOutcome out;
  auto fail = [&](const absl::Status& s) {
    out.status = s;
    return out;
  };
  if (task == nullptr) {
    absl::StatusOr<std::unique_ptr<tuner::Task>> made = MakeJobTask(spec);
    if (!made.ok()) return fail(made.status());
    task = *std::move(made);
  }
  // The job's own connection: the store is used from this thread only.
  absl::StatusOr<std::unique_ptr<tuner::RecordStore>> store =
      tuner::RecordStore::Open(context.db_path);
  if (!store.ok()) return fail(store.status());
  if (absl::Status s = (*store)->PutWorkload(task->key(), task->flops()); !s.ok()) return fail(s);
  absl::StatusOr<JobProgress> base =
      JobProgressFromStore(**store, job_id, task->key(), task->target(), spec.device_key);
  if (!base.ok()) return fail(base.status());
  if (hooks.on_progress) hooks.on_progress(*base);
  const int remaining = spec.trials - base->trials_done;
  if (remaining <= 0) return out;  // a restart found the job's budget already spent

  tuner::StrategyOptions so;
  so.name = spec.tuner;
  so.seed = spec.seed;
  so.transfer_from = spec.transfer ? store->get() : nullptr;
  const std::string target = spec.target;
  so.make_task = [target](const tuner::Workload& w) { return tuner::CreateTask(w, target); };
  absl::StatusOr<std::unique_ptr<tuner::StrategyBundle>> bundle =
      tuner::MakeSearchStrategy(*task, so);
  if (!bundle.ok()) return fail(bundle.status());
  if (!(*bundle)->transfer_summary.empty()) {
    spdlog::info("job {}: {}", job_id, (*bundle)->transfer_summary);
  }
  absl::StatusOr<std::unique_ptr<tuner::Builder>> builder =
      context.pool.MakeBuilder(spec.measure, spec.batch_size);
  if (!builder.ok()) return fail(builder.status());

  RemoteRunnerOptions ro;
  ro.device_key = spec.device_key;
  ro.job_id = job_id;
  ro.measure = spec.measure;
  ro.seed = spec.seed;
  ro.max_artifact_bytes = context.max_artifact_bytes;
  ro.stop = &stop;
  ro.metrics = context.metrics;
  ro.clock = context.clock;
  RemoteRunner runner(context.dispatcher, context.sender, store->get(), ro);
  if (hooks.on_runner) hooks.on_runner(&runner);
  context.dispatcher.SetJobWeight(job_id, spec.priority);

  tuner::TuneOptions to;
  to.trials = remaining;
  to.batch_size = spec.batch_size;
  to.early_stopping = spec.early_stopping;
  to.job_id = job_id;
  to.clock = context.clock;
  to.resume = true;
  to.stop = &stop;
  to.on_progress = [&](const tuner::TuneProgress& p) {
    JobProgress now = *base;
    now.trials_done += p.trials_done;
    now.errors += p.errors;
    for (const auto& [kind, n] : p.error_counts) {
      now.error_counts[std::string(tuner::ErrorKindName(kind))] += n;
    }
    if (p.best_seconds > 0) {
      now.best_seconds = p.best_seconds;
      now.best_gflops = p.best_gflops;
      now.best_config_json = p.best_config_json;
    }
    if (hooks.on_progress) hooks.on_progress(now);
  };
  absl::StatusOr<tuner::TuneSummary> summary =
      tuner::Tune(*task, *(*bundle)->strategy, **builder, runner, store->get(), to);
  if (hooks.on_runner) hooks.on_runner(nullptr);
  if (!summary.ok()) return fail(summary.status());
  out.interrupted = summary->interrupted;
  out.early_stopped = summary->early_stopped;
  out.exhausted = summary->exhausted;
  return out;
}

}  // namespace tunefarm::tracker
