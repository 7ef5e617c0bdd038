// The direct conv2d template, "N,C,H,W,O,KH,KW,stride,pad": NCHW data, OIHW kernel, dilation 1,
// the same stride and padding on both spatial axes.
#pragma once

#include <memory>

#include "absl/status/status.h"
#include "compiler/topi/cpu_info.h"
#include "tuner/task_template.h"
#include "tuner/workload.h"

namespace tunefarm::tuner::templates {

TemplateInfo Conv2dTemplateInfo();

// A TemplateFactory: null with `error` set for a workload the template cannot take.
std::unique_ptr<TaskTemplate> MakeConv2dTemplate(const Workload& workload, const topi::CpuInfo& cpu,
                                                 absl::Status& error);

}  // namespace tunefarm::tuner::templates
