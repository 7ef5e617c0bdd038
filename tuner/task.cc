// Task: binds a template to its workload and target and has it declare its config space once.
#include "tuner/task.h"

#include <utility>

#include "absl/strings/str_cat.h"
#include "tuner/target_cpu.h"

namespace tunefarm::tuner {

Task::Task(Workload workload, std::unique_ptr<TaskTemplate> tmpl, std::string target,
           topi::CpuInfo cpu)
    : workload_(std::move(workload)),
      key_(workload_.Key()),
      tmpl_(std::move(tmpl)),
      space_(std::make_unique<space::ConfigSpace>()),
      target_(std::move(target)),
      cpu_(std::move(cpu)) {}

absl::StatusOr<std::unique_ptr<Task>> Task::FromTemplate(Workload workload,
                                                         std::unique_ptr<TaskTemplate> tmpl,
                                                         const std::string& target,
                                                         const topi::CpuInfo& cpu) {
  if (tmpl == nullptr) return absl::InvalidArgumentError("task: no template");
  absl::StatusOr<std::string> canonical = CanonicalTarget(target);
  if (!canonical.ok()) return canonical.status();
  std::unique_ptr<Task> task(new Task(std::move(workload), std::move(tmpl), *canonical, cpu));
  if (absl::Status s = task->tmpl_->DefineSpace(*task->space_); !s.ok()) {
    return absl::Status(s.code(), absl::StrCat("task ", task->key_, ": ", s.message()));
  }
  if (task->space_->size() == 0) {
    return absl::InvalidArgumentError(absl::StrCat("task ", task->key_, ": empty config space"));
  }
  return task;
}

}  // namespace tunefarm::tuner
