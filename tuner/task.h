// Task: a template + its workload + a target, with the config space it declared. What the tuner
// searches, the builder compiles and the record store files results under (workload key, target).
#pragma once

#include <memory>
#include <string>

#include "absl/status/statusor.h"
#include "compiler/space/config.h"
#include "compiler/space/config_space.h"
#include "compiler/target/gpu_limits.h"
#include "compiler/target/target.h"
#include "compiler/topi/cpu_info.h"
#include "compiler/topi/scheduled_op.h"
#include "tuner/task_template.h"
#include "tuner/workload.h"

namespace tunefarm::tuner {

class Task {
 public:
  // A task over `tmpl` (see templates/template_registry.h CreateTask for a workload key's task).
  // `cpu` is what the knobs are sized for (target::CpuInfoOf(target), or a test's CPU).
  static absl::StatusOr<std::unique_ptr<Task>> FromTemplate(Workload workload,
                                                            std::unique_ptr<TaskTemplate> tmpl,
                                                            const target::Target& target,
                                                            const topi::CpuInfo& cpu);
  Task(const Task&) = delete;
  Task& operator=(const Task&) = delete;

  const Workload& workload() const { return workload_; }
  const std::string& key() const { return key_; }
  const target::Target& target() const { return target_; }
  const topi::CpuInfo& cpu() const { return cpu_; }
  double flops() const { return tmpl_->Flops(); }
  const space::ConfigSpace& space() const { return *space_; }
  const TaskTemplate& tmpl() const { return *tmpl_; }

  // Leaves out of the space every config whose launch is over `limits` (a GPU template's
  // LaunchShape): FromTemplate applies the target's (target::GpuLimitsOf); a farm narrows them to
  // what the devices of a key report. No effect for a CPU template. FailedPrecondition when no
  // config is left, naming the limits.
  absl::Status LimitGpuLaunches(const target::GpuLimits& limits);
  const target::GpuLimits& gpu_limits() const { return gpu_limits_; }

  absl::StatusOr<space::Config> DefaultConfig() const { return tmpl_->DefaultConfig(*space_); }
  absl::StatusOr<topi::ScheduledOp> Apply(const space::Config& config) const {
    return tmpl_->Apply(config);
  }

 private:
  Task(Workload workload, std::unique_ptr<TaskTemplate> tmpl, target::Target target,
       topi::CpuInfo cpu);

  Workload workload_;
  std::string key_;
  std::unique_ptr<TaskTemplate> tmpl_;
  std::unique_ptr<space::ConfigSpace> space_;
  target::Target target_;
  topi::CpuInfo cpu_;
  target::GpuLimits gpu_limits_;
  bool gpu_limited_ = false;  // a launch constraint is in the space
};

}  // namespace tunefarm::tuner
