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
  if (task->target_.is_gpu()) {
    if (absl::Status s = task->LimitGpuLaunches(target::GpuLimitsOf(task->target_)); !s.ok()) {
      return s;
    }
  }
  return task;
}

absl::Status Task::LimitGpuLaunches(const target::GpuLimits& limits) {
  const target::GpuLimits narrowed =
      gpu_limited_ ? gpu_limits_.Narrowed(limits) : target::GpuLimitsOf(target_).Narrowed(limits);
  if (gpu_limited_ && narrowed.max_threads == gpu_limits_.max_threads &&
      narrowed.max_shared_bytes == gpu_limits_.max_shared_bytes) {
    return absl::OkStatus();
  }
  // Probe once: a CPU template has no launch shape, and gets no constraint.
  absl::StatusOr<space::Config> probe = tmpl_->DefaultConfig(*space_);
  if (!probe.ok() || !tmpl_->LaunchShape(*probe).has_value()) return absl::OkStatus();
  gpu_limits_ = narrowed;
  const TaskTemplate* tmpl = tmpl_.get();
  // Constraints only add up, so the tightest limits so far are the ones that bind.
  absl::Status added = space_->AddConstraint(
      absl::StrCat("fits the device: ", narrowed.ToString()),
      [tmpl, narrowed](const space::Config& c) {
        std::optional<TaskTemplate::GpuLaunchShape> shape = tmpl->LaunchShape(c);
        return !shape.has_value() || (shape->threads <= narrowed.max_threads &&
                                      shape->shared_bytes <= narrowed.max_shared_bytes);
      });
  if (!added.ok()) return added;
  gpu_limited_ = true;
  // The default config must stay valid: the tuner starts from it.
  absl::StatusOr<space::Config> first = tmpl_->DefaultConfig(*space_);
  if (first.ok() && space_->IsValid(*first)) return absl::OkStatus();
  absl::StatusOr<int64_t> valid = space_->CountValid();
  if (valid.ok() && *valid == 0) {
    return absl::FailedPreconditionError(
        absl::StrCat("task ", key_, ": no config fits the device (", narrowed.ToString(), ")"));
  }
  return absl::OkStatus();
}

}  // namespace tunefarm::tuner
