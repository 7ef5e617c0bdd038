// JobSpec <-> JSON (the jobs table keeps each job's spec this way, so a restarted tracker can
// rebuild it) and the job state names stored beside it.
#include "farm_api/job.h"

#include <nlohmann/json.hpp>

#include "absl/strings/str_cat.h"
#include "farm_api/tuning_request_json.h"
#include "runtime/core/json_nesting.h"
#include "runtime/measure/json_field_reader.h"

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
         {"model_job_id", spec.model_job_id},
         {"model_task", spec.model_task}};
  AddTuningRequestJson(spec, j);
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
                            {"model_job_id", &spec.model_job_id}}) {
    r.String(field, out);
  }
  r.Int("model_task", &spec.model_task);
  r.IntMap("bindings", &spec.bindings);
  if (!r.status().ok()) return r.status();
  if (absl::Status s = ReadTuningRequestJson(j, "job spec", spec); !s.ok()) return s;
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
