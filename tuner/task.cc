// Task: binds a template to its workload and target and has it declare its config space once.
#include "tuner/task.h"

#include <utility>

#include "absl/strings/str_cat.h"

namespace tunefarm::tuner {

Task::Task(Workload workload, std::unique_ptr<TaskTemplate> tmpl, target::Target target,
           topi::CpuInfo cpu)
    : workload_(std::move(workload)),
      key_(workload_.Key()),
      tmpl_(std::move(tmpl)),
      space_(std::make_unique<space::ConfigSpace>()),
      target_(std::move(target)),
      cpu_(std::move(cpu)) {}

absl::StatusOr<std::unique_ptr<Task>> Task::FromTemplate(Workload workload,
                                                         std::unique_ptr<TaskTemplate> tmpl,
                                                         const target::Target& target,
                                                         const topi::CpuInfo& cpu) {
  if (tmpl == nullptr) return absl::InvalidArgumentError("task: no template");
  std::unique_ptr<Task> task(new Task(std::move(workload), std::move(tmpl), target, cpu));
  if (absl::Status s = task->tmpl_->DefineSpace(*task->space_); !s.ok()) {
    return absl::Status(s.code(), absl::StrCat("task ", task->key_, ": ", s.message()));
  }
  if (task->space_->size() == 0) {
    return absl::InvalidArgumentError(absl::StrCat("task ", task->key_, ": empty config space"));
  }
  return task;
}

}  // namespace tunefarm::tuner
