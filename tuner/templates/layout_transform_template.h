// The layout transform between two channel blocks, "N,C,H,W,from_block,to_block": a value of C
// channels in NCHW[from]c rewritten in NCHW[to]c, as a model build computes it where an add reads
// two values of different blocks (from_nchwc and to_nchwc fused into one kernel, topi's default
// schedule). Tuned for its time only: a graph-level layout choice weighs it against the convs'
// gains (driver/layout_plan.h). Its one config is the build's schedule.
#pragma once

#include <memory>

#include "absl/status/status.h"
#include "compiler/topi/cpu_info.h"
#include "tuner/task_template.h"
#include "tuner/workload.h"

namespace tunefarm::tuner::templates {

TemplateInfo LayoutTransformTemplateInfo();

// A TemplateFactory: null with `error` set for a workload the template cannot take.
std::unique_ptr<TaskTemplate> MakeLayoutTransformTemplate(const Workload& workload,
                                                          const topi::CpuInfo& cpu,
                                                          absl::Status& error);

}  // namespace tunefarm::tuner::templates
