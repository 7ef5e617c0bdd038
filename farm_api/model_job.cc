// ModelJobSpec <-> JSON (the model_jobs table keeps each spec this way), its checks, and the spec
// of each task's job.
#include "farm_api/model_job.h"

#include <cmath>
#include <nlohmann/json.hpp>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "farm_api/tuning_request_json.h"
#include "runtime/core/json_nesting.h"
#include "runtime/measure/json_field_reader.h"

namespace tunefarm::farm_api {
namespace {

using Json = nlohmann::json;

constexpr double kMaxTaskWeight = 1e6;
constexpr int kMaxBatchSize = 1024;
constexpr int kMaxParallelTasks = 64;

absl::Status InvalidModelJob(absl::string_view what) {
  return absl::InvalidArgumentError(absl::StrCat("model job: ", what));
}

bool PrintableAscii(std::string_view s) {
  for (char c : s) {
    if (c < 0x20 || c > 0x7e) return false;
  }
  return true;
}

}  // namespace

std::string ModelJobSpecToJson(const ModelJobSpec& spec) {
  Json tasks = Json::array();
  for (const ModelTaskSpec& t : spec.tasks) {
    tasks.push_back({{"workload", t.workload}, {"weight", t.weight}, {"layer", t.layer}});
  }
  Json j{{"model_name", spec.model_name},
         {"tasks", tasks},
         {"parallel_tasks", spec.parallel_tasks},
         {"round_robin", spec.round_robin}};
  AddTuningRequestJson(spec, j);
  if (!spec.layout.empty()) j["layout"] = Json::parse(tuner::LayoutChoiceToJson(spec.layout));
  return j.dump();
}

absl::StatusOr<ModelJobSpec> ModelJobSpecFromJson(std::string_view json) {
  if (!runtime::JsonNestingWithin(json)) {
    return absl::InvalidArgumentError(absl::StrCat("model job spec: JSON nested deeper than ",
                                                   runtime::kMaxJsonNesting, " levels"));
  }
  Json j = Json::parse(json.begin(), json.end(), nullptr, /*allow_exceptions=*/false);
  if (j.is_discarded() || !j.is_object()) {
    return absl::InvalidArgumentError("model job spec: not a JSON object");
  }
  ModelJobSpec spec;
  runtime::measure::JsonFieldReader r(j, "model job spec");
  r.String("model_name", &spec.model_name);
  r.Int("parallel_tasks", &spec.parallel_tasks);
  r.Bool("round_robin", &spec.round_robin);
  if (!r.status().ok()) return r.status();
  if (absl::Status s = ReadTuningRequestJson(j, "model job spec", spec); !s.ok()) return s;
  auto tasks = j.find("tasks");
  if (tasks == j.end() || !tasks->is_array()) {
    return absl::InvalidArgumentError("model job spec: field 'tasks' is not an array");
  }
  for (const Json& t : *tasks) {
    if (!t.is_object()) {
      return absl::InvalidArgumentError("model job spec: a task is not a JSON object");
    }
    ModelTaskSpec task;
    runtime::measure::JsonFieldReader tr(t, "model job spec", "tasks.");
    tr.String("workload", &task.workload);
    tr.Number("weight", &task.weight);
    tr.Int("layer", &task.layer);  // absent in specs stored before alternatives: -1
    if (!tr.status().ok()) return tr.status();
    spec.tasks.push_back(std::move(task));
  }
  if (auto layout = j.find("layout"); layout != j.end() && !layout->is_null()) {
    absl::StatusOr<tuner::LayoutChoice> choice = tuner::LayoutChoiceFromJson(layout->dump());
    if (!choice.ok()) return choice.status();
    spec.layout = *std::move(choice);
  }
  return spec;
}

absl::Status ValidateModelJobFields(const ModelJobSpec& spec, int max_trials) {
  if (spec.model_name.size() > kMaxModelNameBytes || !PrintableAscii(spec.model_name)) {
    return InvalidModelJob(absl::StrCat("model_name must be printable ASCII of at most ",
                                        kMaxModelNameBytes, " bytes"));
  }
  if (spec.tasks.empty()) return InvalidModelJob("no tasks (the model has no tunable layer)");
  if (spec.tasks.size() > static_cast<size_t>(kMaxModelTasks)) {
    return InvalidModelJob(
        absl::StrCat(spec.tasks.size(), " tasks, over the limit of ", kMaxModelTasks));
  }
  for (size_t i = 0; i < spec.tasks.size(); ++i) {
    const double w = spec.tasks[i].weight;
    // A layout transform runs only where the build's layout choice puts one: timed, not tuned.
    const bool timed_only = absl::StartsWith(spec.tasks[i].workload, "layout_transform:");
    if (!std::isfinite(w) || w < 0 || w > kMaxTaskWeight || (w == 0 && !timed_only)) {
      return InvalidModelJob(absl::StrCat("task ", i, " has weight ", w, "; it must be in (0, ",
                                          kMaxTaskWeight, "] (0 only for a layout_transform)"));
    }
    if (spec.tasks[i].workload.empty()) {
      return InvalidModelJob(absl::StrCat("task ", i, " has no workload"));
    }
    if (spec.tasks[i].layer < -1 || spec.tasks[i].layer >= kMaxModelTasks) {
      return InvalidModelJob(absl::StrCat("task ", i, " has layer ", spec.tasks[i].layer,
                                          "; it must be -1 (its own) or in 0..",
                                          kMaxModelTasks - 1));
    }
    for (size_t k = 0; k < i; ++k) {
      if (spec.tasks[k].workload == spec.tasks[i].workload) {
        return InvalidModelJob(absl::StrCat("tasks ", k, " and ", i, " have the same workload '",
                                            spec.tasks[i].workload,
                                            "' (give it once, with both weights)"));
      }
    }
  }
  if (spec.trials < 1 || spec.trials > max_trials) {
    return InvalidModelJob(
        absl::StrCat("trials must be in 1..", max_trials, ", got ", spec.trials));
  }
  if (spec.batch_size < 1 || spec.batch_size > kMaxBatchSize) {
    return InvalidModelJob(
        absl::StrCat("batch_size must be in 1..", kMaxBatchSize, ", got ", spec.batch_size));
  }
  if (spec.parallel_tasks < 1 || spec.parallel_tasks > kMaxParallelTasks) {
    return InvalidModelJob(absl::StrCat("parallel_tasks must be in 1..", kMaxParallelTasks,
                                        ", got ", spec.parallel_tasks));
  }
  if (absl::Status s =
          tuner::ValidateLayoutChoice(spec.layout, static_cast<int>(spec.tasks.size()));
      !s.ok()) {
    return InvalidModelJob(s.message());
  }
  return absl::OkStatus();
}

absl::Status ValidateModelLatency(const ModelLatency& latency) {
  constexpr double kMaxSeconds = 1e4;
  for (auto [name, v] : {std::pair{"measured_seconds", latency.measured_seconds},
                         {"untuned_seconds", latency.untuned_seconds}}) {
    const bool optional = std::string_view(name) == "untuned_seconds" && v == 0;
    if (!optional && (!std::isfinite(v) || v <= 0 || v > kMaxSeconds)) {
      return InvalidModelJob(absl::StrCat(name, " must be in (0, ", kMaxSeconds, "] s, got ", v));
    }
  }
  if (latency.measured_by.size() > kMaxModelNameBytes || !PrintableAscii(latency.measured_by)) {
    return InvalidModelJob("measured_by must be printable ASCII of at most 256 bytes");
  }
  return absl::OkStatus();
}

JobSpec ModelTaskJobSpec(const ModelJobSpec& spec, const std::string& model_job_id, int task,
                         int trials) {
  JobSpec job;
  static_cast<tuner::TuningRequest&>(job) = spec;
  job.workload = spec.tasks[task].workload;
  job.trials = trials;
  // Each task its own stream of proposals, the same for a fixed seed.
  job.seed = spec.seed + static_cast<uint64_t>(task);
  job.model_job_id = model_job_id;
  job.model_task = task;
  return job;
}

std::vector<ModelTaskSpec> ModelTaskSpecsOf(const std::vector<tuner::ModelTask>& tasks) {
  std::vector<ModelTaskSpec> specs;
  for (const tuner::ModelTask& t : tasks) {
    specs.push_back({t.workload.Key(), static_cast<double>(t.groups.size()), t.layer});
  }
  return specs;
}

}  // namespace tunefarm::farm_api
