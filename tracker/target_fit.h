// Whether the workers of a device key can run a job's target: checked when a job is submitted,
// so that a `--target cuda` job on CPU workers is refused at once instead of failing every trial.
#pragma once

#include <optional>
#include <vector>

#include "absl/status/status.h"
#include "compiler/target/gpu_limits.h"
#include "compiler/target/target.h"
#include "tracker/dispatcher.h"

namespace tunefarm::tracker {

// Whether code for `job` can run on a worker that registered `worker_target`: the same kind
// (CPU, CUDA or OpenCL) and, for CPUs, the same architecture (the triple's first part) where the
// worker named one. The CPU model may differ: a kernel using features the worker lacks fails its
// trials as a runtime error.
bool TargetRunsOn(const target::Target& job, const std::string& worker_target);

// OK when `workers` (the measuring workers of the job's key) is empty (the job waits for one to
// connect) or one of them runs `job`; else InvalidArgument naming the targets they run.
absl::Status CheckWorkersRun(const target::Target& job, const std::string& device_key,
                             const std::vector<farm_api::WorkerSnapshot>& workers);

// The tightest launch limits the GPU workers among `workers` registered (a job's trials go to
// any of them); nullopt when none reported a GPU.
std::optional<target::GpuLimits> ReportedGpuLimits(
    const std::vector<farm_api::WorkerSnapshot>& workers);

}  // namespace tunefarm::tracker
