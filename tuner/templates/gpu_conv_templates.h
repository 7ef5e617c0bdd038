// The GPU conv templates for `cuda` targets, under the CPU templates' names and argument forms:
// conv2d "N,C,H,W,O,KH,KW,stride,pad" (NCHW, OIHW) and depthwise_conv2d "N,C,H,W,KH,KW,stride,
// pad", scheduled by compiler/topi's gpu_conv2d and gpu_depthwise_conv2d.
#pragma once

#include <memory>

#include "absl/status/status.h"
#include "compiler/topi/cpu_info.h"
#include "tuner/task_template.h"
#include "tuner/workload.h"

namespace tunefarm::tuner::templates {

TemplateInfo GpuConv2dTemplateInfo();
TemplateInfo GpuDepthwiseConv2dTemplateInfo();

// TemplateFactories (`cpu` is unused): null with `error` set for a workload they cannot take.
std::unique_ptr<TaskTemplate> MakeGpuConv2dTemplate(const Workload& workload,
                                                    const topi::CpuInfo& cpu, absl::Status& error);
std::unique_ptr<TaskTemplate> MakeGpuDepthwiseConv2dTemplate(const Workload& workload,
                                                             const topi::CpuInfo& cpu,
                                                             absl::Status& error);

}  // namespace tunefarm::tuner::templates
