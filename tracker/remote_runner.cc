#include "tracker/remote_runner.h"

#include <chrono>
#include <condition_variable>
#include <map>
#include <mutex>
#include <utility>

#include "absl/strings/str_cat.h"
#include "spdlog/spdlog.h"
#include "tracker/metrics.h"
#include "tuner/tuning_loop.h"

namespace tunefarm::tracker {

// Outcomes travel from dispatcher callbacks (any thread, possibly after this runner is gone) to
// the Run waiting for them. Each Run has its own generation, so a late outcome of an earlier Run
// is never taken for one of this Run.
struct RemoteRunner::Shared {
  std::mutex mu;
  std::condition_variable cv;
  uint64_t generation = 0;
  std::vector<std::pair<size_t, WorkOutcome>> arrived;  // (input index, outcome)
};

namespace {

constexpr const char* kTrackerSide = "tracker";  // measured_by of results no worker produced

runtime::measure::CandidateOptions CandidateOptionsOf(const tuner::MeasureOptions& m,
                                                      uint64_t seed) {
  runtime::measure::CandidateOptions o;
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

tuner::MeasureResult Failed(tuner::ErrorKind kind, std::string message, double build_seconds) {
  tuner::MeasureResult r;
  r.error_kind = kind;
  r.error_message = std::move(message);
  r.build_seconds = build_seconds;
  r.measured_by = kTrackerSide;
  return r;
}

}  // namespace

RemoteRunner::RemoteRunner(Dispatcher& dispatcher, LeaseSender& sender, tuner::RecordStore* store,
                           RemoteRunnerOptions options)
    : dispatcher_(dispatcher),
      sender_(sender),
      store_(store),
      options_(std::move(options)),
      shared_(std::make_shared<Shared>()) {}

RemoteRunner::~RemoteRunner() = default;

void RemoteRunner::Interrupt() {
  std::lock_guard<std::mutex> lock(shared_->mu);
  shared_->cv.notify_all();
}

std::vector<tuner::MeasureResult> RemoteRunner::Run(const std::vector<tuner::MeasureInput>& inputs,
                                                    const std::vector<tuner::BuildResult>& builds,
                                                    double best_seconds) {
  auto stopped = [&] { return options_.stop != nullptr && options_.stop->load(); };
  std::vector<tuner::MeasureResult> results(inputs.size());
  std::vector<bool> waiting(inputs.size(), false);
  size_t pending = 0;
  uint64_t generation;
  {
    std::lock_guard<std::mutex> lock(shared_->mu);
    generation = ++shared_->generation;
    shared_->arrived.clear();
  }
  std::map<std::string, Artifact> references;  // by path: candidates share a reference library

  for (size_t i = 0; i < inputs.size(); ++i) {
    if (i >= builds.size()) {
      results[i] = Failed(tuner::ErrorKind::kRuntimeError, "no build result for this input", 0);
      continue;
    }
    const tuner::BuildResult& build = builds[i];
    if (build.error_kind != tuner::ErrorKind::kOk) {
      results[i] = Failed(build.error_kind, build.error_message, build.build_seconds);
      continue;
    }
    if (stopped()) {
      results[i].cancelled = true;
      continue;
    }
    MeasureWork work;
    work.job_id = options_.job_id;
    work.device_key = options_.device_key;
    absl::StatusOr<Artifact> library =
        LoadArtifact(build.library_path, options_.max_artifact_bytes);
    if (!library.ok()) {
      results[i] = Failed(tuner::ErrorKind::kBuildError, std::string(library.status().message()),
                          build.build_seconds);
      continue;
    }
    work.library = *std::move(library);
    work.function_name = build.function_name;
    const bool check = options_.measure.check_correctness && !build.reference_library_path.empty();
    if (check) {
      auto ref = references.find(build.reference_library_path);
      if (ref == references.end()) {
        absl::StatusOr<Artifact> loaded =
            LoadArtifact(build.reference_library_path, options_.max_artifact_bytes);
        if (!loaded.ok()) {
          results[i] =
              Failed(tuner::ErrorKind::kBuildError,
                     absl::StrCat("reference: ", loaded.status().message()), build.build_seconds);
          continue;
        }
        ref = references.emplace(build.reference_library_path, *std::move(loaded)).first;
      }
      work.reference = ref->second;
      work.reference_key = build.reference_key;
    }
    work.options = CandidateOptionsOf(options_.measure, options_.seed);
    work.options.check_correctness = check;
    work.run_timeout_s = options_.measure.run_timeout_s;
    work.best_seconds = best_seconds;

    waiting[i] = true;
    ++pending;
    std::weak_ptr<Shared> weak = shared_;
    auto done = [weak, generation, i](const WorkOutcome& outcome) {
      std::shared_ptr<Shared> shared = weak.lock();
      if (shared == nullptr) return;
      std::lock_guard<std::mutex> lock(shared->mu);
      if (shared->generation != generation) return;
      shared->arrived.emplace_back(i, outcome);
      shared->cv.notify_all();
    };
    sender_.Send(dispatcher_.Submit(std::move(work), std::move(done), options_.clock->NowMs()));
  }

  // Turns an outcome into its result, stored at once (a tracker killed mid-batch keeps it).
  auto take = [&](size_t i, WorkOutcome& outcome) {
    if (i >= results.size() || !waiting[i]) return;
    waiting[i] = false;
    --pending;
    tuner::MeasureResult& r = results[i];
    r.build_seconds = builds[i].build_seconds;
    if (outcome.cancelled) {
      r.cancelled = true;
      return;
    }
    r.error_kind = outcome.error_kind;
    r.error_message = std::move(outcome.error_message);
    r.repeat_seconds = std::move(outcome.repeat_seconds);
    r.measured_by = outcome.worker_id.empty() ? kTrackerSide : outcome.worker_id;
    if (store_ == nullptr) return;
    tuner::Record record = tuner::MakeRecord(*inputs[i].task, inputs[i].config, r,
                                             options_.device_key, options_.job_id, *options_.clock);
    const auto write_start = std::chrono::steady_clock::now();
    absl::StatusOr<int64_t> id = store_->Insert(record);
    if (options_.metrics != nullptr) {
      options_.metrics->ObserveDbWrite(
          std::chrono::duration<double>(std::chrono::steady_clock::now() - write_start).count());
    }
    if (id.ok()) {
      r.recorded = true;
    } else {
      // Left to the tuning loop, which stores unrecorded results and reports the failure.
      spdlog::warn("remote runner: job {}: cannot store a result: {}", options_.job_id,
                   id.status().ToString());
    }
  };
  auto drain = [&] {
    std::vector<std::pair<size_t, WorkOutcome>> arrived;
    {
      std::lock_guard<std::mutex> lock(shared_->mu);
      arrived.swap(shared_->arrived);
    }
    for (auto& [i, outcome] : arrived) take(i, outcome);
  };

  while (pending > 0) {
    {
      std::unique_lock<std::mutex> lock(shared_->mu);
      shared_->cv.wait_for(lock, std::chrono::milliseconds(200),
                           [&] { return !shared_->arrived.empty() || stopped(); });
    }
    drain();
    if (pending > 0 && stopped()) {
      // The job's cancellation callbacks run inside CancelJob; results that came first stay.
      sender_.Withdraw(dispatcher_.CancelJob(options_.job_id));
      drain();
      for (size_t i = 0; i < results.size(); ++i) {
        if (!waiting[i]) continue;
        waiting[i] = false;
        results[i].cancelled = true;
        results[i].build_seconds = builds[i].build_seconds;
      }
      pending = 0;
    }
  }
  {
    std::lock_guard<std::mutex> lock(shared_->mu);
    ++shared_->generation;  // outcomes from now on belong to no Run
    shared_->arrived.clear();
  }
  return results;
}

}  // namespace tunefarm::tracker
