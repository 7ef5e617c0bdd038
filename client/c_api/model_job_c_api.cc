#include "client/c_api/model_job_c_api.h"

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "client/farm_model_tuner.h"
#include "driver/c_api/c_call.h"
#include "driver/model_tune.h"
#include "runtime/measure/interleaved_timing.h"

namespace {

using tunefarm::c_api::Fail;
using tunefarm::c_api::Text;

// The notes the last step gives (the race's lines, the files written), kept for the caller.
struct Notes : tunefarm::driver::ModelTuneObserver {
  void OnNote(const std::string& line) override { lines.push_back(line); }
  std::vector<std::string> lines;
};

}  // namespace

extern "C" {

int32_t TFFinishModelJob(const char* tracker, const char* token_file, const char* tls_root_cert,
                         const char* job_id, const char* onnx, const char* input_shapes,
                         const char* output, int32_t race, double race_seconds, int32_t threads,
                         char** json, char* error, size_t error_size) {
  namespace driver = tunefarm::driver;
  namespace client = tunefarm::client;
  return tunefarm::c_api::Guarded(error, error_size, [&]() -> int32_t {
    if (tracker == nullptr || job_id == nullptr || onnx == nullptr || output == nullptr ||
        json == nullptr) {
      return Fail("no tracker, job, model, output or result", error, error_size);
    }
    if (threads < 0 || !(race_seconds > 0)) {
      return Fail("threads must not be negative and race_seconds must be positive", error,
                  error_size);
    }
    driver::ModelTuneRequest request;
    request.model.file = onnx;
    if (absl::Status s =
            tunefarm::c_api::ParseShapeList(input_shapes, &request.model.compile.input_shapes);
        !s.ok()) {
      return Fail(s.message(), error, error_size);
    }
    request.output = output;
    request.race = race != 0;
    request.race_seconds = race_seconds;

    client::FarmTuningSettings settings;
    settings.farm = client::FarmAddress{tracker, Text(token_file), Text(tls_root_cert)};
    request.tuning.measure.threads = threads;
    // The job names its key and target: read first, then a tuner of that key does the rest.
    absl::StatusOr<driver::TunedModel> tuned = client::FarmModelTuner(settings).ModelJob(job_id);
    if (!tuned.ok()) return Fail(tuned.status().message(), error, error_size);
    if (tuned->ending != driver::TunedModel::Ending::kSucceeded) {
      return Fail("model job " + std::string(job_id) + " is " + tuned->job_state +
                      ": only a succeeded job is built",
                  error, error_size);
    }
    request.tuning.device_key = tuned->device_key;
    request.tuning.target = tuned->target;
    client::FarmModelTuner backend(settings);
    absl::StatusOr<tunefarm::target::Target> target = backend.ResolveTarget(request.tuning);
    if (!target.ok()) return Fail(target.status().message(), error, error_size);
    Notes notes;
    absl::StatusOr<driver::ModelTuneResult> result =
        driver::FinishModelTuning(request, *target, *std::move(tuned), backend, notes);
    if (!result.ok()) return Fail(result.status().message(), error, error_size);

    nlohmann::json out = {
        {"state", result->tuned.job_state}, {"output", request.output}, {"notes", notes.lines}};
    if (result->race) {
      out["race_challenges"] = result->race->challenges;
      out["race_changed"] = result->race->changed;
    }
    if (const auto& e = result->end_to_end; e.has_value()) {
      out["tuned_seconds"] = e->tuned_seconds;
      out["untuned_seconds"] = e->untuned_seconds;
      out["ratio"] = e->tuned_over_untuned.ratio;
      out["low"] = e->tuned_over_untuned.low;
      out["high"] = e->tuned_over_untuned.high;
      out["rounds"] = e->tuned_over_untuned.rounds;
      out["speedup"] = tunefarm::runtime::measure::DescribeSpeedup(e->tuned_over_untuned);
      out["measured_by"] = e->measured_by;
    }
    *json = tunefarm::c_api::MallocCopy(out.dump());
    if (*json == nullptr) return Fail("out of memory", error, error_size);
    return 0;
  });
}

}  // extern "C"
