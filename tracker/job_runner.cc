#include "tracker/job_runner.h"

#include <algorithm>
#include <utility>

#include "absl/strings/str_cat.h"
#include "compiler/ir/type_names.h"
#include "runtime/core/abbreviate.h"
#include "tracker/device_key.h"
#include "tuner/templates/build_spec_task.h"
#include "tuner/workload.h"

namespace tunefarm::tracker {
namespace {

absl::Status Invalid(const std::string& message) { return absl::InvalidArgumentError(message); }

}  // namespace

absl::Status ValidateJobSpec(const farm_api::JobSpec& spec, int max_trials) {
  if (spec.workload.empty() == spec.script_source.empty()) {
    return Invalid("give exactly one of a workload key and a script source");
  }
  if (absl::Status s = ValidateDeviceKey(spec.device_key, "device_key"); !s.ok()) return s;
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

absl::StatusOr<runtime::measure::BuildSpec> JobBuildSpec(const farm_api::JobSpec& spec) {
  runtime::measure::BuildSpec b;
  b.target = spec.target;
  b.with_reference = spec.measure.check_correctness;
  b.build_timeout_s = spec.measure.build_timeout_s;
  if (!spec.workload.empty()) {
    absl::StatusOr<tuner::Workload> w = tuner::ParseWorkloadKey(spec.workload);
    if (!w.ok()) return Invalid(absl::StrCat("workload: ", w.status().message()));
    // A key without its dtype part takes the spec's.
    if (std::count(spec.workload.begin(), spec.workload.end(), ':') == 1 && !spec.dtype.empty()) {
      w->dtype = spec.dtype;
    }
    b.workload_key = w->Key();
  } else {
    b.script_name = spec.script_name.empty() ? "script" : spec.script_name;
    b.script_source = spec.script_source;
    b.script_bindings = spec.bindings;
  }
  return b;
}

absl::StatusOr<std::unique_ptr<tuner::Task>> MakeJobTask(const farm_api::JobSpec& spec) {
  absl::StatusOr<runtime::measure::BuildSpec> b = JobBuildSpec(spec);
  if (!b.ok()) return b.status();
  return tuner::TaskFromBuildSpec(*b);
}

absl::StatusOr<farm_api::JobProgress> JobProgressFromStore(
    tuner::RecordStore& store, const std::string& job_id, const std::string& workload_key,
    const std::string& target, const std::string& device_key, tuner::CacheFlush cache_flush) {
  absl::StatusOr<std::vector<tuner::Record>> history = store.JobHistory(job_id);
  if (!history.ok()) return history.status();
  farm_api::JobProgress p;
  for (const tuner::Record& r : *history) {
    ++p.trials_done;
    if (r.error_kind != tuner::ErrorKind::kOk) {
      ++p.errors;
      ++p.error_counts[std::string(tuner::ErrorKindName(r.error_kind))];
    }
  }
  absl::StatusOr<std::optional<tuner::Record>> best =
      store.Best({workload_key, target, device_key, std::nullopt, cache_flush});
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

absl::Status ValidateModelJobSpec(const farm_api::ModelJobSpec& spec, int max_trials) {
  if (absl::Status s = farm_api::ValidateModelJobFields(spec, max_trials); !s.ok()) return s;
  return ValidateJobSpec(farm_api::ModelTaskJobSpec(spec, "", 0, 1), max_trials);
}

}  // namespace tunefarm::tracker
