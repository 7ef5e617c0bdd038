// Task: a template + its workload + a target, with the config space it declared. What the tuner
// searches, the builder compiles and the record store files results under (workload key, target).
#pragma once

#include <memory>
#include <string>

#include "absl/status/statusor.h"
#include "compiler/space/config.h"
#include "compiler/space/config_space.h"
#include "compiler/topi/cpu_info.h"
#include "compiler/topi/scheduled_op.h"
#include "tuner/task_template.h"
#include "tuner/workload.h"

namespace tunefarm::tuner {

class Task {
 public:
  // A task over `tmpl` (see templates/template_registry.h CreateTask for a workload key's task).
  // `target` is a target string ("llvm", "llvm -mtriple=..."); `cpu` what the knobs are sized for.
  static absl::StatusOr<std::unique_ptr<Task>> FromTemplate(Workload workload,
                                                            std::unique_ptr<TaskTemplate> tmpl,
                                                            const std::string& target,
                                                            const topi::CpuInfo& cpu);
  Task(const Task&) = delete;
  Task& operator=(const Task&) = delete;

  const Workload& workload() const { return workload_; }
  const std::string& key() const { return key_; }
  // The canonical target string (codegen::Target::ToString for LLVM targets).
  const std::string& target() const { return target_; }
  const topi::CpuInfo& cpu() const { return cpu_; }
  double flops() const { return tmpl_->Flops(); }
  const space::ConfigSpace& space() const { return *space_; }
  const TaskTemplate& tmpl() const { return *tmpl_; }

  absl::StatusOr<space::Config> DefaultConfig() const { return tmpl_->DefaultConfig(*space_); }
  absl::StatusOr<topi::ScheduledOp> Apply(const space::Config& config) const {
    return tmpl_->Apply(config);
  }

 private:
  Task(Workload workload, std::unique_ptr<TaskTemplate> tmpl, std::string target,
       topi::CpuInfo cpu);

  Workload workload_;
  std::string key_;
  std::unique_ptr<TaskTemplate> tmpl_;
  std::unique_ptr<space::ConfigSpace> space_;
  std::string target_;
  topi::CpuInfo cpu_;
};

}  // namespace tunefarm::tuner
