// The blocked conv2d template, "N,C,H,W,O,KH,KW,stride,pad[,ic_block,oc_block]", computed in
// NCHW[ic]c with an OIHW[ic]i[oc]o kernel whose blocks are knobs unless the workload fixes them (a
// model's task: its layout's blocks); its arguments are the blocked tensors.
#pragma once

#include <memory>

#include "absl/status/status.h"
#include "compiler/topi/cpu_info.h"
#include "tuner/task_template.h"
#include "tuner/workload.h"

namespace tunefarm::tuner::templates {

TemplateInfo Conv2dNchwcTemplateInfo();

// A TemplateFactory: null with `error` set for a workload the template cannot take.
std::unique_ptr<TaskTemplate> MakeConv2dNchwcTemplate(const Workload& workload,
                                                      const topi::CpuInfo& cpu,
                                                      absl::Status& error);

}  // namespace tunefarm::tuner::templates
