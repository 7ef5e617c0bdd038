// The GPU matmul and dense templates for GPU targets, "M,N,K" like the CPU ones: C[M,N] =
// A[M,K] * B[K,N], and Y[M,N] = X[M,K] * W[N,K]^T (a fully connected layer), row-major float32,
// scheduled by compiler/topi/gpu_matmul (shared-memory and register tiles).
#pragma once

#include <memory>

#include "absl/status/status.h"
#include "compiler/topi/cpu_info.h"
#include "tuner/task_template.h"
#include "tuner/workload.h"

namespace tunefarm::tuner::templates {

TemplateInfo GpuMatmulTemplateInfo();
TemplateInfo GpuDenseTemplateInfo();

// A TemplateFactory (`cpu` is unused): null with `error` set for a workload it cannot take.
std::unique_ptr<TaskTemplate> MakeGpuMatmulTemplate(const Workload& workload,
                                                    const topi::CpuInfo& cpu, absl::Status& error);
std::unique_ptr<TaskTemplate> MakeGpuDenseTemplate(const Workload& workload,
                                                   const topi::CpuInfo& cpu, absl::Status& error);

}  // namespace tunefarm::tuner::templates
