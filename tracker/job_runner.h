// What a job is before it runs: Submit's spec checks, its task, and where it stands by its
// records (across tracker restarts).
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <string>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "farm_api/job.h"
#include "farm_api/model_job.h"
#include "runtime/measure/build_spec.h"
#include "tuner/record_store.h"
#include "tuner/task.h"

namespace tunefarm::tracker {

// The longest script_name a job may give (it becomes part of the workload key).
inline constexpr size_t kMaxScriptNameBytes = 255;

// Checks what needs no task: one of workload/script, device key, trials in 1..max_trials,
// priority, batch size, early stopping, dtype (a known element type, for scripts too),
// script_name's length and the measure options (tuner::ValidateMeasureOptions: finite, in their
// documented ranges). InvalidArgument names the field.
absl::Status ValidateJobSpec(const farm_api::JobSpec& spec, int max_trials);
// A model job's fields, and what every task's job shares (device key, priority, measure
// options), checked once.
absl::Status ValidateModelJobSpec(const farm_api::ModelJobSpec& spec, int max_trials);

// What every candidate of the job is built from, less its config: the canonical workload key
// (a key without dtype takes the spec's) or the script, the target and the build options.
absl::StatusOr<runtime::measure::BuildSpec> JobBuildSpec(const farm_api::JobSpec& spec);

// The spec's task (workload key or TE script) on its target, made by tuner::TaskFromBuildSpec
// like a building worker's. A bad workload, template or target and any script error (which
// carries FILE:LINE:COL) are InvalidArgument.
absl::StatusOr<std::unique_ptr<tuner::Task>> MakeJobTask(const farm_api::JobSpec& spec);

// Counts the job's records in `store`; the best is that of (workload, target, device key) among
// the records timed as the job times them (`cache_flush`, tuner::Record).
absl::StatusOr<farm_api::JobProgress> JobProgressFromStore(
    tuner::RecordStore& store, const std::string& job_id, const std::string& workload_key,
    const std::string& target, const std::string& device_key, tuner::CacheFlush cache_flush);

}  // namespace tunefarm::tracker
