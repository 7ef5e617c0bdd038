// The channel-blocked depthwise conv2d template, "N,C,H,W,KH,KW,stride,pad[,channel_block]":
// NCHW[c]c data and a [C/c][KH][KW][c] kernel whose block c is a knob unless the workload fixes
// it (a model's task: its layout's block), so its arguments are the blocked tensors.
#pragma once

#include <memory>

#include "absl/status/status.h"
#include "compiler/topi/cpu_info.h"
#include "tuner/task_template.h"
#include "tuner/workload.h"

namespace tunefarm::tuner::templates {

TemplateInfo DepthwiseConv2dNchwcTemplateInfo();

// A TemplateFactory: null with `error` set for a workload the template cannot take.
std::unique_ptr<TaskTemplate> MakeDepthwiseConv2dNchwcTemplate(const Workload& workload,
                                                               const topi::CpuInfo& cpu,
                                                               absl::Status& error);

}  // namespace tunefarm::tuner::templates
