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
// AlreadyExists when the name is taken; InvalidArgument for an empty name or no factory.
absl::Status RegisterTemplate(TemplateInfo info, TemplateFactory factory);

// Every registered template, sorted by name.
std::vector<TemplateInfo> ListTemplates();

// The template `workload.template_name` bound to the workload. Errors: an unknown name (listing
// the known ones), wrong arguments (naming the expected "M,N,K" form).
absl::StatusOr<std::unique_ptr<TaskTemplate>> MakeTemplate(const Workload& workload,
                                                           const topi::CpuInfo& cpu);

// The task of a workload key's template on `target` ("llvm", "llvm -mtriple=..."), its knobs
// sized for that target's CPU (CpuInfoForTarget).
absl::StatusOr<std::unique_ptr<Task>> CreateTask(const Workload& workload,
                                                 const std::string& target);

}  // namespace tunefarm::tuner
