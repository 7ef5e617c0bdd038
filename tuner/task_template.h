// TaskTemplate: one schedule template bound to one workload and target. It declares the knobs of
// its config space and turns any config of that space into a schedule. The operator library's
// ops (tuner/templates/) and TE scripts with `cfg` knobs both implement it.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "compiler/space/config.h"
#include "compiler/space/config_space.h"
#include "compiler/target/target.h"
#include "compiler/topi/cpu_info.h"
#include "compiler/topi/scheduled_op.h"
#include "tuner/workload.h"

namespace tunefarm::tuner {

class TaskTemplate {
 public:
  virtual ~TaskTemplate() = default;

  // Declares every knob and constraint into the empty `space`.
  virtual absl::Status DefineSpace(space::ConfigSpace& space) const = 0;

  // The config the operator library's default schedule would pick (or the nearest point of the
  // space); the tuner measures it first, so tuning never ends worse than the default.
  virtual absl::StatusOr<space::Config> DefaultConfig(const space::ConfigSpace& space) const = 0;

  // The schedule for one config of the space DefineSpace filled. Errors (a config the schedule
  // rejects) are recorded as invalid_config, never thrown.
  virtual absl::StatusOr<topi::ScheduledOp> Apply(const space::Config& config) const = 0;

  // A naive schedule (no tiling, no parallelism) computing the same outputs from arguments laid
  // out exactly as Apply(config)'s: the correctness reference of that config.
  virtual absl::StatusOr<topi::ScheduledOp> Reference(const space::Config& config) const = 0;

  // Configs with equal keys have identical argument lists (shapes, dtypes, layouts), so one
  // reference run serves them all. Templates whose knobs change argument layouts override it.
  virtual std::string ReferenceKey(const space::Config& config) const {
    (void)config;
    return "";
  }

  // Floating-point operations of one run (what GFLOPS figures divide by).
  // GPU templates: the threads per block and the shared (__local) bytes `config` launches with,
  // so that a task for a device with smaller limits leaves out the configs it would refuse.
  // nullopt: not a GPU template (or a config it cannot read).
  struct GpuLaunchShape {
    int64_t threads = 0;
    int64_t shared_bytes = 0;
  };
  virtual std::optional<GpuLaunchShape> LaunchShape(const space::Config& config) const {
    (void)config;
    return std::nullopt;
  }

  virtual double Flops() const = 0;
};

// Makes a template for `workload` on a CPU like `cpu`. Errors name the workload and the problem
// (wrong argument count, a shape the op rejects).
using TemplateFactory = std::unique_ptr<TaskTemplate> (*)(const Workload& workload,
                                                          const topi::CpuInfo& cpu,
                                                          absl::Status& error);

struct TemplateInfo {
  std::string name;       // "matmul"
  std::string args_help;  // "M,N,K", shown by `tunefarm tune --help` and in errors
  std::string summary;    // one line
  // The targets it schedules for: a workload key names an op, and the task's target picks the
  // CPU or the GPU template of that name.
  target::Target::Kind kind = target::Target::Kind::kCpu;
};

}  // namespace tunefarm::tuner
