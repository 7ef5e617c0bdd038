// Tune(): the synchronous loop of local tuning: a TuningSession driven batch by batch (propose,
// build, measure, complete), so a killed tuner loses at most the batch in flight and a resumed
// one starts where the records end.
#include "tuner/tuning_loop.h"

#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "compiler/space/config_json.h"
#include "tuner/tuning_session.h"
#include "tuner/version.h"

namespace tunefarm::tuner {
std::string ModelScope(const Task& task, const std::string& device_key, CacheFlush cache_flush) {
  const char* timing = cache_flush == CacheFlush::kAll       ? "|cold"
                       : cache_flush == CacheFlush::kWeights ? "|cold-weights"
                                                             : "";
  return absl::StrCat(task.workload().template_name, "|", task.target().str(), "|", device_key,
                      timing);
}

MeasureResult ResultOfRecord(const Record& r) {
  MeasureResult m;
  m.error_kind = r.error_kind;
  m.error_message = r.error_message;
  m.repeat_seconds = r.repeat_seconds;
  m.canary_ratio = r.canary_ratio;
  m.noisy = r.noisy;
  m.emulated = r.emulated;
  m.build_seconds = r.build_seconds;
  m.measured_by = r.measured_by;
  m.built_by = r.built_by;
  return m;
}

Record MakeRecord(const Task& task, const space::Config& config, const MeasureResult& result,
                  const std::string& device_key, const TuneOptions& options) {
  Record r;
  r.workload_key = task.key();
  r.target = task.target().str();
  r.device_key = device_key;
  r.config_json = space::ConfigToJson(config);
  r.repeat_seconds = result.repeat_seconds;
  r.error_kind = result.error_kind;
  r.error_message = result.error_message;
  r.build_seconds = result.build_seconds;
  r.measured_by = result.measured_by;
  r.built_by = result.built_by;
  r.timestamp_ms = options.clock->NowMs();
  r.tunefarm_version = std::string(kTunefarmVersion);
  r.job_id = options.job_id;
  r.cache_flush = options.cache_flush;
  r.canary_ratio = result.canary_ratio;
  r.noisy = result.noisy;
  r.emulated = result.emulated;
  return r;
}

absl::StatusOr<TuneSummary> Tune(const Task& task, SearchStrategy& strategy, Builder& builder,
                                 Runner& runner, RecordStore* store, const TuneOptions& options) {
  if (options.trials < 0 || options.batch_size <= 0 || options.early_stopping < 0) {
    return absl::InvalidArgumentError(absl::StrCat(
        "tune ", task.key(), ": trials (", options.trials, ") and early_stopping (",
        options.early_stopping, ") must be >= 0 and batch_size (", options.batch_size, ") > 0"));
  }
  TuningSession session(task, strategy, store, runner.device_key(), options);
  if (absl::Status s = session.Start(); !s.ok()) return s;
  for (;;) {
    absl::StatusOr<std::vector<space::Config>> batch = session.Propose(options.batch_size);
    if (!batch.ok()) return batch.status();
    if (batch->empty()) break;  // nothing is in flight between batches: the session is done
    std::vector<MeasureInput> inputs;
    for (const space::Config& c : *batch) inputs.push_back(MeasureInput{&task, c});
    std::vector<BuildResult> builds = builder.Build(inputs);
    std::vector<MeasureResult> results =
        runner.Run(inputs, builds, session.progress().best_seconds);
    // A runner that stopped early returns fewer results: the rest were never measured.
    const size_t measured = results.size();
    results.resize(batch->size());
    for (size_t i = measured; i < results.size(); ++i) results[i].cancelled = true;
    if (absl::Status s = session.Complete(*batch, std::move(results)); !s.ok()) return s;
  }
  return session.Finish();
}

}  // namespace tunefarm::tuner
