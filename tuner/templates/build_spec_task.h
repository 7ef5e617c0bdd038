// The task a BuildSpec names: the tracker makes a job's task and a building worker makes each
// lease's task through this one function, so both compile the same thing.
#pragma once

#include <memory>

#include "absl/status/statusor.h"
#include "runtime/measure/build_spec.h"
#include "tuner/task.h"

namespace tunefarm::tuner {

// A workload key's template task, or (no key) the script's task; InvalidArgument naming the
// workload, script or target that does not make a task.
absl::StatusOr<std::unique_ptr<Task>> TaskFromBuildSpec(const runtime::measure::BuildSpec& spec);

}  // namespace tunefarm::tuner
