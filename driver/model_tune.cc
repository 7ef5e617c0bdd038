#include "driver/model_tune.h"

#include <filesystem>
#include <unistd.h>

#include "absl/strings/str_cat.h"
#include "driver/model_compiler.h"
#include "runtime/time_evaluator.h"

namespace tunefarm::driver {
namespace {

// The end-to-end timing: rounds of the race timer's four slots (untuned, tuned, tuned, untuned,
// reversed every other round), enough for a 95 % interval a few percent wide on a quiet device.
constexpr int kEndToEndRounds = 10;

// A folder for the untuned build and fetched records, removed with everything in it.
class ScratchDir {
 public:
  explicit ScratchDir(const std::string& tag)
      : path_(std::filesystem::temp_directory_path() /
              absl::StrCat("tf-model-tune-", tag, "-", ::getpid())) {
    std::filesystem::create_directories(path_);
  }
  ~ScratchDir() {
    std::error_code ec;
    std::filesystem::remove_all(path_, ec);
  }
  ScratchDir(const ScratchDir&) = delete;
  ScratchDir& operator=(const ScratchDir&) = delete;
  std::string File(const std::string& name) const { return (path_ / name).string(); }

 private:
  std::filesystem::path path_;
};

absl::Status Build(const ModelTuneRequest& request, const ModelCompileOptions& options,
                   const target::Target& target, const std::string& output) {
  absl::StatusOr<CompiledModel> model = CompileModel(request.model.file, options, target);
  if (!model.ok()) return model.status();
  return ExportCompiledModel(*model, output);
}

}  // namespace

absl::StatusOr<ModelTuneResult> TuneModel(const ModelTuneRequest& request,
                                          ModelTuneBackend& backend, ModelTuneObserver& observer,
                                          const std::atomic<bool>* stop) {
  ModelTuneRequest resolved = request;
  absl::StatusOr<target::Target> target = backend.ResolveTarget(resolved.tuning);
  if (!target.ok()) return target.status();
  absl::StatusOr<ModelTuning> tuning = ModelTuningTasks(resolved.model, resolved.tuning, *target);
  if (!tuning.ok()) return tuning.status();

  absl::StatusOr<TunedModel> tuned = backend.Tune(*tuning, *target, resolved, observer, stop);
  if (!tuned.ok()) return tuned.status();
  observer.OnTuned(*tuned);
  return FinishModelTuning(resolved, *target, *std::move(tuned), backend, observer);
}

absl::StatusOr<ModelTuneResult> FinishModelTuning(const ModelTuneRequest& request,
                                                  const target::Target& target, TunedModel tuned,
                                                  ModelTuneBackend& backend,
                                                  ModelTuneObserver& observer) {
  ModelTuneResult result;
  result.tuned = std::move(tuned);
  if (result.tuned.ending != TunedModel::Ending::kSucceeded || request.output.empty()) {
    return result;
  }

  const ScratchDir scratch(result.tuned.job_id.empty() ? "local" : result.tuned.job_id);
  absl::StatusOr<std::string> db = backend.BestRecords(result.tuned, scratch.File("best.db"));
  if (!db.ok()) {
    return absl::Status(db.status().code(),
                        absl::StrCat("fetching the best records: ", db.status().message()));
  }
  ModelCompileOptions untuned_options = request.model.compile;
  untuned_options.db.clear();
  ModelCompileOptions tuned_options = untuned_options;
  tuned_options.db = *db;
  tuned_options.device_key = result.tuned.device_key;

  std::string why_not_timed;
  const ModuleRaceTimer timer =
      backend.Timer(target, request.tuning, kEndToEndRounds, &why_not_timed);
  // The race picks between CPU convolution algorithms (direct or Winograd); a GPU build has one.
  if (request.race && !target.is_gpu() && timer) {
    const ModuleRaceTimer race_timer =
        backend.Timer(target, request.tuning, /*rounds=*/16, &why_not_timed);
    RaceOptions race;
    race.budget_s = request.race_seconds;
    bool timer_failed = false;
    const ModuleRaceTimer watched = [&](const std::string& a, const std::string& b) {
      absl::StatusOr<RaceTimes> times = race_timer(a, b);
      timer_failed = !times.ok();
      return times;
    };
    absl::StatusOr<RaceResult> raced =
        RaceAlgorithms(request.model.file, tuned_options, target, watched, race,
                       [&observer](const std::string& line) { observer.OnNote(line); });
    if (raced.ok()) {
      observer.OnNote(absl::StrCat(
          "race on ",
          result.tuned.job_id.empty() ? std::string("this machine")
                                      : absl::StrCat("a worker of '", result.tuned.device_key, "'"),
          ": ", raced->challenges, " rivals timed in the model, ", raced->changed,
          " conv workloads changed algorithm"));
      tuned_options.algorithms = raced->algorithms;
      result.race = *std::move(raced);
    } else if (timer_failed) {
      // A race that cannot run (no device in time, a lost session) leaves the records' choices.
      observer.OnNote(
          absl::StrCat("race: stopped, the records' choices stand: ", raced.status().message()));
    } else {
      return raced.status();
    }
  }

  const std::string untuned = scratch.File("untuned.so");
  if (absl::Status s = Build(request, tuned_options, target, request.output); !s.ok()) return s;
  if (absl::Status s = Build(request, untuned_options, target, untuned); !s.ok()) return s;
  observer.OnNote(
      absl::StrCat("wrote ", request.output, " (built with the best record of each task)"));
  if (!timer) {
    observer.OnNote(absl::StrCat("not timed end to end: ", why_not_timed));
    return result;
  }
  absl::StatusOr<RaceTimes> times = timer(untuned, request.output);
  if (!times.ok()) {
    return absl::Status(times.status().code(),
                        absl::StrCat("timing the model on a device of '", result.tuned.device_key,
                                     "': ", times.status().message()));
  }
  absl::StatusOr<runtime::measure::RatioInterval> ratio =
      runtime::measure::PairedRatio(times->incumbent, times->challenger);
  if (!ratio.ok()) return ratio.status();
  EndToEndLatency latency;
  latency.tuned_seconds = runtime::Summarize(times->challenger).median;
  latency.untuned_seconds = runtime::Summarize(times->incumbent).median;
  latency.tuned_over_untuned = *ratio;
  latency.measured_by = times->timed_by;
  if (absl::Status s = backend.StoreLatency(result.tuned, latency); !s.ok()) return s;
  result.end_to_end = std::move(latency);
  return result;
}

}  // namespace tunefarm::driver
