#include "compiler/topi/default_schedule.h"

#include <algorithm>

#include "compiler/topi/injective_schedule.h"
#include "compiler/topi/loop_tiling.h"

namespace tunefarm::topi {
namespace {

// Below this many multiply-adds a parallel launch costs more than the loop.
constexpr int64_t kMinParallelWork = 1 << 14;

int64_t Extents(const std::vector<ir::IterVar>& axes) {
  int64_t n = 1;
  for (const ir::IterVar& iv : axes) n *= AxisExtent(iv);
  return n;
}

// out axes a_0..a_n-1 and reduction axes r: a_0..a_n-2 and a_n-1's vectors fused (parallel),
// then r, then the lanes of a_n-1 (vectorized), so every reduction step is one vector operation.
void ScheduleReduction(schedule::Stage& stage, const CpuInfo& cpu) {
  const std::vector<ir::IterVar> axes = stage.op()->axis;
  const std::vector<ir::IterVar> reduce = stage.op()->reduce_axis;
  if (axes.empty()) return;
  const bool parallel = cpu.cores > 1 && Extents(axes) * Extents(reduce) >= kMinParallelWork;
  std::vector<ir::IterVar> outer(axes.begin(), axes.end() - 1);
  const int64_t lanes = cpu.Lanes(4);
  ir::IterVar lane;
  if (lanes > 1 && AxisExtent(axes.back()) >= lanes) {
    outer.push_back(SplitBy(stage, axes.back(), lanes, &lane));
  } else {
    outer.push_back(axes.back());
  }
  std::vector<ir::IterVar> order = outer;
  order.insert(order.end(), reduce.begin(), reduce.end());
  if (lane.defined()) order.push_back(lane);
  Reorder(stage, order);
  if (lane.defined()) stage.vectorize(lane);
  FuseOuter(stage, outer, parallel);
}

}  // namespace

absl::StatusOr<ScheduledOp> ScheduleDefault(const std::vector<te::Tensor>& inputs,
                                            const std::vector<te::Tensor>& outputs,
                                            const CpuInfo& cpu) {
  std::vector<te::Operation> ops;
  for (const te::Tensor& t : outputs) ops.push_back(t.op());
  schedule::Schedule s = schedule::Schedule::Create(ops);
  for (schedule::Stage* stage : s.stages()) {
    const te::Operation& op = stage->op();
    if (op->kind != te::OpKind::kCompute) continue;
    const bool is_output = std::find(ops.begin(), ops.end(), op) != ops.end();
    if (!op->reduce_axis.empty()) {
      ScheduleReduction(*stage, cpu);
    } else if (is_output) {
      std::vector<int64_t> shape;
      for (const ir::IterVar& iv : op->axis) shape.push_back(AxisExtent(iv));
      ScheduleInjectiveStage(*stage, DefaultInjectiveConfig(shape, cpu));
    } else {
      stage->compute_inline();
    }
  }
  if (!s.error().ok()) return s.error();
  std::vector<te::Tensor> args = inputs;
  args.insert(args.end(), outputs.begin(), outputs.end());
  return ScheduledOp{s, args};
}

}  // namespace tunefarm::topi
