// The templates a workload key may name: the operator library's tunable ops, registered once.
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "compiler/topi/cpu_info.h"
#include "tuner/task.h"
#include "tuner/task_template.h"
#include "tuner/workload.h"

namespace tunefarm::tuner {

// Adds a template to the registry of this process, e.g. a program that embeds the tracker with its
// own operators (and the farm's tests, with templates that crash or hang on purpose).
// AlreadyExists when the name is taken for the same target kind; InvalidArgument for an empty name
// or no factory.
absl::Status RegisterTemplate(TemplateInfo info, TemplateFactory factory);

// Every registered template, sorted by name (a CPU template before the GPU one of its name).
std::vector<TemplateInfo> ListTemplates();

// The `target` template named `workload.template_name` bound to the workload. Errors: an unknown
// name (listing the known ones for that target kind), wrong arguments (naming the expected
// "M,N,K" form).
absl::StatusOr<std::unique_ptr<TaskTemplate>> MakeTemplate(
    const Workload& workload, const topi::CpuInfo& cpu,
    target::Target::Kind target = target::Target::Kind::kCpu);

// The task of a workload key's template on `target`, its CPU knobs sized for that target's CPU
// (target::CpuInfoOf); a `cuda` target gets the GPU template of the name.
absl::StatusOr<std::unique_ptr<Task>> CreateTask(const Workload& workload,
                                                 const target::Target& target);

}  // namespace tunefarm::tuner
