// The int8 dense template: dense_int8 "M,N,K" with dtype int8 (Y[M,N] = X[M,K] * W[N,K]^T, uint8
// X, int8 W packed for the CPU's dot-product lanes, int32 Y), tuned like the float templates.
#pragma once

#include <memory>

#include "absl/status/status.h"
#include "compiler/topi/cpu_info.h"
#include "tuner/task_template.h"
#include "tuner/workload.h"

namespace tunefarm::tuner::templates {

TemplateInfo DenseInt8TemplateInfo();

// Null with `error` set for a workload it cannot take (K not a multiple of 4, dtype not int8).
std::unique_ptr<TaskTemplate> MakeDenseInt8Template(const Workload& workload,
                                                    const topi::CpuInfo& cpu, absl::Status& error);

}  // namespace tunefarm::tuner::templates
