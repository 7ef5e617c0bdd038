// The int8 conv2d template: conv2d_int8 "N,C,H,W,O,KH,KW,stride,pad" with dtype int8 (uint8 data
// NCHW[c], int8 kernel packed for the CPU's dot-product lanes, int32 output NCHW[L]; c is 16, 8
// or 4, the largest that divides C, or 4), tuned like the float templates.
#pragma once

#include <memory>

#include "absl/status/status.h"
#include "compiler/topi/cpu_info.h"
#include "tuner/task_template.h"
#include "tuner/workload.h"

namespace tunefarm::tuner::templates {

TemplateInfo Conv2dInt8TemplateInfo();

std::unique_ptr<TaskTemplate> MakeConv2dInt8Template(const Workload& workload,
                                                     const topi::CpuInfo& cpu, absl::Status& error);

}  // namespace tunefarm::tuner::templates
