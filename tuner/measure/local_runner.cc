#include "tuner/measure/local_runner.h"

#include <cctype>

#include "absl/strings/str_cat.h"
#include "compiler/topi/cpu_info.h"
#include "runtime/measure/measure_program.h"
#include "runtime/measure/measure_protocol.h"
#include "tuner/measure/measure_child.h"

namespace tunefarm::tuner {
namespace {

namespace rm = runtime::measure;

constexpr const char* kMeasuredBy = "local";

rm::CandidateOptions CandidateOptionsOf(const MeasureOptions& m, uint64_t seed) {
  rm::CandidateOptions o;
  o.number = m.number;
  o.repeat = m.repeat;
  o.min_repeat_ms = m.min_repeat_ms;
  o.cooldown_ms = m.cooldown_ms;
  o.flush_cache = m.flush_cache;
  o.check_correctness = m.check_correctness;
  o.rtol = m.rtol;
  o.atol = m.atol;
  o.slow_cutoff_ratio = m.slow_cutoff_ratio;
  o.threads = m.threads;
  o.seed = seed;
  return o;
}

MeasureResult Failed(ErrorKind kind, std::string message, double build_seconds) {
  MeasureResult r;
  r.error_kind = kind;
  r.error_message = std::move(message);
  r.build_seconds = build_seconds;
  r.measured_by = kMeasuredBy;
  return r;
}

bool IsNoiseWord(const std::string& word) {
  return word == "processor" || word == "cpu" || word == "r" || word == "tm" || word.empty();
}

}  // namespace

std::string LocalDeviceKey(const std::string& cpu_model) {
  std::string model = cpu_model.substr(0, cpu_model.find(" @ "));  // "... @ 2.20GHz"
  std::vector<std::string> words(1);
  for (char c : model) {
    if (std::isalnum(static_cast<unsigned char>(c))) {
      words.back().push_back(static_cast<char>(std::tolower(static_cast<unsigned char>(c))));
    } else if (!words.back().empty()) {
      words.emplace_back();
    }
  }
  std::string key;
  for (const std::string& w : words) {
    if (IsNoiseWord(w)) continue;
    if (!key.empty() && key.size() + 1 + w.size() > 40) break;
    absl::StrAppend(&key, key.empty() ? "" : "-", w.substr(0, 40));
  }
  return absl::StrCat("local-", key.empty() ? "cpu" : key);
}

LocalRunner::LocalRunner(LocalRunnerOptions options, std::string program, std::string device_key)
    : options_(std::move(options)),
      program_(std::move(program)),
      device_key_(std::move(device_key)) {}

LocalRunner::~LocalRunner() = default;

absl::StatusOr<std::unique_ptr<LocalRunner>> LocalRunner::Create(LocalRunnerOptions options) {
  const MeasureOptions& m = options.measure;
  if (m.repeat < 1 || m.number < 0 || m.min_repeat_ms < 0 || m.cooldown_ms < 0 ||
      !(m.run_timeout_s > 0) || m.threads < 0) {
    return absl::InvalidArgumentError(
        "local runner: need repeat >= 1, number >= 0, min_repeat_ms >= 0, cooldown_ms >= 0, "
        "run_timeout_s > 0 and threads >= 0");
  }
  absl::StatusOr<std::string> program = rm::FindMeasureProgram(options.program);
  if (!program.ok()) return program.status();
  std::string key =
      options.device_key.empty() ? LocalDeviceKey(topi::DetectHostCpu().model) : options.device_key;
  return std::unique_ptr<LocalRunner>(
      new LocalRunner(std::move(options), *std::move(program), std::move(key)));
}

std::vector<MeasureResult> LocalRunner::Run(const std::vector<MeasureInput>& inputs,
                                            const std::vector<BuildResult>& builds,
                                            double best_seconds) {
  std::vector<MeasureResult> results;
  results.reserve(inputs.size());
  for (size_t i = 0; i < inputs.size(); ++i) {
    if (i >= builds.size()) {
      results.push_back(Failed(ErrorKind::kRuntimeError, "no build result for this input", 0));
    } else if (builds[i].error_kind != ErrorKind::kOk) {
      results.push_back(
          Failed(builds[i].error_kind, builds[i].error_message, builds[i].build_seconds));
    } else {
      results.push_back(Measure(builds[i], best_seconds));
    }
  }
  return results;
}

MeasureResult LocalRunner::Measure(const BuildResult& build, double best_seconds) {
  // A child that died while idle (killed from outside) must not cost this candidate its result.
  if (child_ != nullptr && child_->ExitedWhileIdle()) child_.reset();
  if (child_ == nullptr || !child_->alive()) {
    child_.reset();
    absl::StatusOr<std::unique_ptr<MeasureChild>> started = MeasureChild::Start(program_);
    if (!started.ok()) {
      return Failed(ErrorKind::kWorkerLost, std::string(started.status().message()),
                    build.build_seconds);
    }
    child_ = *std::move(started);
    ++children_started_;
  }
  rm::MeasureRequest request;
  request.id = next_id_++;
  request.library_path = build.library_path;
  request.function_name = build.function_name;
  request.reference_library_path = build.reference_library_path;
  request.reference_key = build.reference_key;
  request.options = CandidateOptionsOf(options_.measure, options_.seed);
  request.options.check_correctness =
      options_.measure.check_correctness && !build.reference_library_path.empty();
  request.best_seconds = best_seconds;

  // A new reference first runs alone, under its own deadline: a naive schedule may take far
  // longer than any candidate, and a candidate must not be timed out for it (nor given its time).
  const std::string reference_id =
      absl::StrCat(build.reference_library_path, "#", build.reference_key);
  if (request.options.check_correctness && !references_ready_.contains(reference_id)) {
    rm::MeasureRequest prepare = request;
    prepare.id = next_id_++;
    prepare.library_path.clear();
    prepare.function_name.clear();
    MeasureChild::Reply ready =
        child_->Exchange(rm::SerializeRequest(prepare), options_.reference_timeout_s);
    if (ready.kind != MeasureChild::Reply::Kind::kLine) {
      child_.reset();
      return Failed(
          ready.kind == MeasureChild::Reply::Kind::kTimeout ? ErrorKind::kRunTimeout
                                                            : ErrorKind::kRuntimeError,
          absl::StrCat("the reference ", build.reference_library_path, " did not finish (",
                       ready.text, "); limit ", options_.reference_timeout_s, " s"),
          build.build_seconds);
    }
    absl::StatusOr<rm::MeasureResponse> prepared = rm::ParseResponse(ready.text);
    if (!prepared.ok() || prepared->status != rm::MeasureStatus::kOk) {
      child_.reset();
      return Failed(ErrorKind::kRuntimeError,
                    prepared.ok() ? prepared->message : std::string(prepared.status().message()),
                    build.build_seconds);
    }
    references_ready_.insert(reference_id);
  }
  const double timeout_s = options_.measure.run_timeout_s;
  MeasureChild::Reply reply = child_->Exchange(rm::SerializeRequest(request), timeout_s);
  switch (reply.kind) {
    case MeasureChild::Reply::Kind::kLine:
      break;
    case MeasureChild::Reply::Kind::kDied:
      return Failed(ErrorKind::kRuntimeError,
                    absl::StrCat("the measure process ended (", reply.text, ") while running ",
                                 build.library_path),
                    build.build_seconds);
    case MeasureChild::Reply::Kind::kTimeout:
      return Failed(
          ErrorKind::kRunTimeout,
          absl::StrCat("no result within ", timeout_s, " s; the measure process was killed"),
          build.build_seconds);
    case MeasureChild::Reply::Kind::kError:
      return Failed(ErrorKind::kRuntimeError, absl::StrCat("measure channel: ", reply.text),
                    build.build_seconds);
  }
  absl::StatusOr<rm::MeasureResponse> response = rm::ParseResponse(reply.text);
  if (!response.ok() || response->id != request.id) {
    child_.reset();  // out of step with us: start over with a fresh child
    return Failed(ErrorKind::kRuntimeError,
                  response.ok() ? absl::StrCat("measure response for request ", response->id,
                                               ", expected ", request.id)
                                : std::string(response.status().message()),
                  build.build_seconds);
  }
  absl::StatusOr<ErrorKind> kind = ParseErrorKind(rm::MeasureStatusName(response->status));
  // A candidate that computed garbage or failed may have written out of bounds without
  // crashing: the next one gets a clean process (a restart costs a few milliseconds).
  if (response->status != rm::MeasureStatus::kOk) child_.reset();
  MeasureResult result;
  result.error_kind = kind.ok() ? *kind : ErrorKind::kRuntimeError;
  result.error_message = std::move(response->message);
  result.repeat_seconds = std::move(response->repeat_seconds);
  result.build_seconds = build.build_seconds;
  result.measured_by = kMeasuredBy;
  return result;
}

}  // namespace tunefarm::tuner
