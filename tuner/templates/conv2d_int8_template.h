// The int8 conv2d template: conv2d_int8 "N,C,H,W,O,KH,KW,stride,pad" with dtype int8 (uint8 data
// NCHW[c], int8 kernel packed for the CPU's dot-product lanes, int32 output NCHW[L]; c is 16, 8
// or 4, the largest that divides C, or 4), tuned like the float templates. A model's task adds the
// blocks its layout has ("...,pad,ic_block,lanes"; ic_block a multiple of 4, lanes the CPU's).
#pragma once

#include <memory>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "compiler/topi/conv2d_int8.h"
#include "compiler/topi/cpu_info.h"
#include "tuner/task_template.h"
#include "tuner/workload.h"

namespace tunefarm::tuner::templates {

TemplateInfo Conv2dInt8TemplateInfo();

// The workload's tensors (placeholders "data" and "kernel"), as the template and a model build
// with its records compute them.
absl::StatusOr<topi::Conv2dInt8Tensors> Conv2dInt8WorkloadTensors(const Workload& workload,
                                                                  const topi::CpuInfo& cpu);

std::unique_ptr<TaskTemplate> MakeConv2dInt8Template(const Workload& workload,
                                                     const topi::CpuInfo& cpu, absl::Status& error);

}  // namespace tunefarm::tuner::templates
