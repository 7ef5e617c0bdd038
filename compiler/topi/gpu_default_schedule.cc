#include "compiler/topi/gpu_default_schedule.h"

#include <algorithm>

#include "absl/strings/str_cat.h"
#include "compiler/topi/gpu_tiling.h"
#include "compiler/topi/injective_schedule.h"
#include "compiler/topi/loop_tiling.h"
#include "compiler/topi/static_shape.h"

namespace tunefarm::topi {

absl::StatusOr<ScheduledOp> ScheduleGpuDefault(const std::vector<te::Tensor>& inputs,
                                               const std::vector<te::Tensor>& outputs,
                                               int64_t threads) {
  std::vector<te::Operation> ops;
  for (const te::Tensor& t : outputs) ops.push_back(t.op());
  schedule::Schedule s = schedule::Schedule::Create(ops);
  std::vector<te::Tensor> reductions;
  for (schedule::Stage* stage : s.stages()) {
    const te::Operation& op = stage->op();
    if (op->kind != te::OpKind::kCompute) continue;
    if (std::find(ops.begin(), ops.end(), op) != ops.end()) continue;
    if (op->reduce_axis.empty()) {
      stage->compute_inline();
    } else {
      reductions.emplace_back(op);
    }
  }
  if (!reductions.empty() && outputs.size() > 1) {
    return absl::UnimplementedError(
        absl::StrCat("gpu default schedule: ", reductions.size(), " intermediate reduction(s) ('",
                     reductions[0].op()->name, "') in a computation with ", outputs.size(),
                     " outputs; each output is its own kernel and kernels share no buffers"));
  }
  // Each output's axes fused and cut into blocks of threads; the thread loop is where the
  // reductions it reads are computed.
  ir::IterVar thread_of_first;
  for (const te::Tensor& out : outputs) {
    schedule::Stage& stage = s[out];
    const std::vector<ir::IterVar> axes = stage.op()->axis;
    const ir::IterVar fused = FuseOuter(stage, axes, /*parallel=*/false);
    int64_t elements = 1;
    for (const ir::IterVar& iv : axes) elements *= AxisExtent(iv);
    const int64_t block_threads = std::min(threads, elements);
    ir::IterVar block, thread;
    stage.split(fused, Imm(block_threads), &block, &thread);
    stage.bind(block, GpuBlockAxis("blockIdx.x"));
    stage.bind(thread, GpuThreadAxis("threadIdx.x", block_threads));
    if (!thread_of_first.defined()) thread_of_first = thread;
  }
  // Reductions in registers: a local copy computed in the reading thread; the original (now a
  // copy of it) inlined. Stage order is producer first, so a reduction that reads another
  // (softmax's sum of exp(x - max)) is attached after it.
  for (const te::Tensor& r : reductions) {
    absl::StatusOr<te::Tensor> local = s.cache_write(r, "local");
    if (!local.ok()) return local.status();
    s[r].compute_inline();
    s[*local].compute_at(s[outputs[0]], thread_of_first);
  }
  if (!s.error().ok()) return s.error();
  std::vector<te::Tensor> args = inputs;
  args.insert(args.end(), outputs.begin(), outputs.end());
  return ScheduledOp{s, args};
}

}  // namespace tunefarm::topi
