// JobSpec <-> JSON (the jobs table keeps each job's spec this way, so a restarted tracker can
// rebuild it) and the job state names stored beside it.
#include "farm_api/job.h"

#include <nlohmann/json.hpp>

#include "absl/strings/str_cat.h"
#include "runtime/core/json_nesting.h"
#include "runtime/measure/json_field_reader.h"
#include "runtime/measure/measure_options_json.h"

namespace tunefarm::farm_api {
namespace {

using Json = nlohmann::json;

}  // namespace

std::string JobSpecToJson(const JobSpec& spec) {
  Json bindings = Json::object();
  for (const auto& [name, value] : spec.bindings) bindings[name] = value;
  Json j{{"workload", spec.workload},
         {"script_source", spec.script_source},
         {"script_name", spec.script_name},
         {"bindings", bindings},
         {"dtype", spec.dtype},
         {"target", spec.target},
         {"device_key", spec.device_key},
         {"trials", spec.trials},
         {"tuner", spec.tuner},
         {"batch_size", spec.batch_size},
         {"early_stopping", spec.early_stopping},
         {"seed", spec.seed},
         {"measure", runtime::measure::MeasureOptionsToJson(spec.measure)},
         {"priority", spec.priority},
         {"transfer", spec.transfer},
         {"model_job_id", spec.model_job_id},
         {"model_task", spec.model_task}};
  return j.dump();
}

absl::StatusOr<JobSpec> JobSpecFromJson(std::string_view json) {
  if (!runtime::JsonNestingWithin(json)) {
    return absl::InvalidArgumentError(
        absl::StrCat("job spec: JSON nested deeper than ", runtime::kMaxJsonNesting, " levels"));
  }
  Json j = Json::parse(json.begin(), json.end(), nullptr, /*allow_exceptions=*/false);
  if (j.is_discarded()) return absl::InvalidArgumentError("job spec: not valid JSON");
  if (!j.is_object()) return absl::InvalidArgumentError("job spec: not a JSON object");
  JobSpec spec;
  runtime::measure::JsonFieldReader r(j, "job spec");
  for (auto [field, out] : {std::pair{"workload", &spec.workload},
                            {"script_source", &spec.script_source},
                            {"script_name", &spec.script_name},
                            {"dtype", &spec.dtype},
                            {"target", &spec.target},
                            {"device_key", &spec.device_key},
                            {"tuner", &spec.tuner},
                            {"model_job_id", &spec.model_job_id}}) {
    r.String(field, out);
  }
  for (auto [field, out] : {std::pair{"trials", &spec.trials},
                            {"batch_size", &spec.batch_size},
                            {"early_stopping", &spec.early_stopping},
                            {"priority", &spec.priority},
                            {"model_task", &spec.model_task}}) {
    r.Int(field, out);
  }
  r.Uint("seed", &spec.seed);
  r.Bool("transfer", &spec.transfer);
  r.IntMap("bindings", &spec.bindings);
  const Json* m = r.Object("measure");
  if (!r.status().ok()) return r.status();
  if (m != nullptr) {
    // A spec stored before the measure options carried their own seed: the job's seeded the
    // inputs.
    spec.measure.seed = spec.seed;
    if (absl::Status s =
            runtime::measure::MeasureOptionsFromJson(*m, "job spec", "measure.", &spec.measure);
        !s.ok()) {
      return s;
    }
  }
  // A spec stored by an older tracker may hold numbers no longer accepted (a run_timeout_s of
  // 1e300 expires every lease at once): such a job is refused, not resumed.
  if (absl::Status s = tuner::ValidateMeasureOptions(spec.measure); !s.ok()) {
    return absl::InvalidArgumentError(absl::StrCat("job spec: ", s.message()));
  }
  return spec;
}

std::string_view JobStateName(JobState state) {
  switch (state) {
    case JobState::kQueued:
      return "queued";
    case JobState::kRunning:
      return "running";
    case JobState::kSucceeded:
      return "succeeded";
    case JobState::kFailed:
      return "failed";
    case JobState::kCancelled:
      return "cancelled";
    case JobState::kPaused:
      return "paused";
  }
  return "unknown";
}

absl::StatusOr<JobState> ParseJobState(std::string_view name) {
  for (JobState s : {JobState::kQueued, JobState::kRunning, JobState::kSucceeded, JobState::kFailed,
                     JobState::kCancelled, JobState::kPaused}) {
    if (JobStateName(s) == name) return s;
  }
  return absl::InvalidArgumentError(
      absl::StrCat("unknown job state '", std::string(name),
                   "'; known: queued, running, succeeded, failed, cancelled, paused"));
}

}  // namespace tunefarm::farm_api
