// The GEMM family's templates: matmul "M,N,K" (C[M,N] = A[M,K] B[K,N]), dense "M,N,K" (Y[M,N] =
// X[M,K] W[N,K]^T) and batch_matmul "B,M,N,K" (C[b] = A[b] B[b], B[b] stored [K][N]).
#pragma once

#include <memory>

#include "absl/status/status.h"
#include "compiler/topi/cpu_info.h"
#include "tuner/task_template.h"
#include "tuner/workload.h"

namespace tunefarm::tuner::templates {

TemplateInfo MatmulTemplateInfo();
TemplateInfo DenseTemplateInfo();
TemplateInfo DensePackedTemplateInfo();
TemplateInfo BatchMatmulTemplateInfo();

// TemplateFactory's: null with `error` set for a workload the template cannot take.
std::unique_ptr<TaskTemplate> MakeMatmulTemplate(const Workload& workload, const topi::CpuInfo& cpu,
                                                 absl::Status& error);
std::unique_ptr<TaskTemplate> MakeDenseTemplate(const Workload& workload, const topi::CpuInfo& cpu,
                                                absl::Status& error);
std::unique_ptr<TaskTemplate> MakeDensePackedTemplate(const Workload& workload,
                                                      const topi::CpuInfo& cpu,
                                                      absl::Status& error);
std::unique_ptr<TaskTemplate> MakeBatchMatmulTemplate(const Workload& workload,
                                                      const topi::CpuInfo& cpu,
                                                      absl::Status& error);

}  // namespace tunefarm::tuner::templates
