// The Winograd conv2d template, "N,C,H,W,O,KH,KW,stride,pad,ic_block,oc_block" like a model's
// blocked conv task (3x3, stride 1, padding 0 or 1): F(m x m, 3x3) in those blocks, m a knob. Its
// arguments are the data, the transformed weight (its shape follows m) and the output; GFLOPS
// count the direct conv's multiply-adds, so they compare with conv2d_nchwc's.
#pragma once

#include <memory>

#include "absl/status/status.h"
#include "compiler/topi/cpu_info.h"
#include "tuner/task_template.h"
#include "tuner/workload.h"

namespace tunefarm::tuner::templates {

TemplateInfo Conv2dWinogradNchwcTemplateInfo();

// A TemplateFactory: null with `error` set for a workload the template cannot take.
std::unique_ptr<TaskTemplate> MakeConv2dWinogradNchwcTemplate(const Workload& workload,
                                                              const topi::CpuInfo& cpu,
                                                              absl::Status& error);

}  // namespace tunefarm::tuner::templates
