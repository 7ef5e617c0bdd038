#include "tuner/templates/build_spec_task.h"

#include "absl/strings/str_cat.h"
#include "tuner/templates/script_template.h"
#include "tuner/templates/template_registry.h"
#include "tuner/workload.h"

namespace tunefarm::tuner {

absl::StatusOr<std::unique_ptr<Task>> TaskFromBuildSpec(const runtime::measure::BuildSpec& spec) {
  absl::StatusOr<target::Target> target = target::ParseTarget(spec.target);
  if (!target.ok()) return target.status();
  absl::StatusOr<std::unique_ptr<Task>> task = absl::UnknownError("unset");
  if (!spec.workload_key.empty()) {
    absl::StatusOr<Workload> w = ParseWorkloadKey(spec.workload_key);
    if (!w.ok())
      return absl::InvalidArgumentError(absl::StrCat("workload: ", w.status().message()));
    task = CreateTask(*w, *target);
  } else {
    if (spec.script_source.empty()) {
      return absl::InvalidArgumentError("a build spec needs a workload key or a script");
    }
    const std::string name = spec.script_name.empty() ? "script" : spec.script_name;
    task = CreateScriptTask(name, spec.script_source, spec.script_bindings, *target);
  }
  if (!task.ok()) return absl::InvalidArgumentError(task.status().message());
  return task;
}

}  // namespace tunefarm::tuner
