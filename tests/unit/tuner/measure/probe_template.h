// A small real TaskTemplate for the measurement tests: C[i, j] = sum_k A[i, k] * B[k, j] over
// 32x32 matrices, whose "behavior" knob makes the candidate correct, wrong, crashing (a read
// gigabytes past A), hanging (a reduction of 2^31 - 1 steps), rejected by the template, or
// rejected by the code generator (a GPU thread binding on a CPU target).
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "compiler/ir/op.h"
#include "compiler/te/tensor.h"
#include "compiler/topi/cpu_info.h"
#include "tuner/task.h"
#include "tuner/task_template.h"

namespace tunefarm::tuner::testing {

inline constexpr int kProbeSize = 32;

class ProbeTemplate final : public TaskTemplate {
 public:
  absl::Status DefineSpace(space::ConfigSpace& space) const override {
    if (absl::Status s = space.DefineChoice(
            "behavior", {"ok", "wrong", "crash", "hang", "invalid", "build_error"});
        !s.ok()) {
      return s;
    }
    return space.DefineChoice("tile", {int64_t{1}, int64_t{8}});
  }

  absl::StatusOr<space::Config> DefaultConfig(const space::ConfigSpace& space) const override {
    return space.Get(0);
  }

  absl::StatusOr<topi::ScheduledOp> Apply(const space::Config& config) const override {
    absl::StatusOr<std::string> behavior = config.ChoiceString("behavior");
    absl::StatusOr<int64_t> tile = config.ChoiceInt("tile");
    if (!behavior.ok()) return behavior.status();
    if (!tile.ok()) return tile.status();
    if (*behavior == "invalid") return absl::InvalidArgumentError("the probe rejects this config");
    const int n = kProbeSize;
    te::Tensor a = te::placeholder({n, n}, ir::DataType::Float(32), "A");
    te::Tensor b = te::placeholder({n, n}, ir::DataType::Float(32), "B");
    const int k_extent = *behavior == "hang" ? 2147483647 : n;
    ir::IterVar k = te::reduce_axis({0, k_extent}, "k");
    absl::StatusOr<te::Tensor> c = te::compute(
        {n, n},
        [&](const std::vector<ir::Var>& i) -> ir::Expr {
          ir::Expr kk = *behavior == "hang" ? ir::FloorMod(k->var, n) : ir::Expr(k->var);
          ir::Expr row = *behavior == "crash" ? i[0] + 30000000 : ir::Expr(i[0]);
          ir::Expr product = a({row, kk}) * b({kk, i[1]});
          if (*behavior == "wrong") product = product * 1.5f;
          return te::sum(product, {k});
        },
        "C");
    if (!c.ok()) return c.status();
    schedule::Schedule s = schedule::Schedule::Create({c->op()});
    schedule::Stage& stage = s[*c];
    ir::IterVar jo, ji;
    stage.split(stage.op()->axis[1], ir::Expr(static_cast<int>(*tile)), &jo, &ji);
    if (*behavior == "build_error") {
      stage.bind(stage.op()->axis[0], te::thread_axis(ir::Range(), "blockIdx.x"));
    }
    return topi::ScheduledOp{s, {a, b, *c}};
  }

  absl::StatusOr<topi::ScheduledOp> Reference(const space::Config& config) const override {
    (void)config;
    const int n = kProbeSize;
    te::Tensor a = te::placeholder({n, n}, ir::DataType::Float(32), "A");
    te::Tensor b = te::placeholder({n, n}, ir::DataType::Float(32), "B");
    ir::IterVar k = te::reduce_axis({0, n}, "k");
    absl::StatusOr<te::Tensor> c = te::compute(
        {n, n},
        [&](const std::vector<ir::Var>& i) {
          return te::sum(a({i[0], k->var}) * b({k->var, i[1]}), {k});
        },
        "C");
    if (!c.ok()) return c.status();
    return topi::ScheduledOp{schedule::Schedule::Create({c->op()}), {a, b, *c}};
  }

  double Flops() const override { return 2.0 * kProbeSize * kProbeSize * kProbeSize; }
};

// A task over ProbeTemplate for the host, under its own workload name (references are keyed by
// it, so two tests' tasks never share one by accident).
inline std::unique_ptr<Task> MakeProbeTask(const std::string& name = "measure_probe") {
  absl::StatusOr<std::unique_ptr<Task>> task =
      Task::FromTemplate(Workload{name, {kProbeSize}, "float32"}, std::make_unique<ProbeTemplate>(),
                         target::Target::Host(), topi::DetectHostCpu());
  return task.ok() ? *std::move(task) : nullptr;
}

// The config of `task` with this behavior and tile.
inline space::Config ProbeConfig(const Task& task, const std::string& behavior, int64_t tile = 8) {
  static const std::vector<std::string> kBehaviors = {"ok",   "wrong",   "crash",
                                                      "hang", "invalid", "build_error"};
  int64_t b = 0;
  while (kBehaviors[b] != behavior) ++b;
  return *task.space().FromKnobIndices({b, tile == 1 ? 0 : 1});
}

}  // namespace tunefarm::tuner::testing
