#include "compiler/topi/gpu_reference_schedule.h"

#include "compiler/topi/gpu_tiling.h"
#include "compiler/topi/loop_tiling.h"
#include "compiler/topi/static_shape.h"

namespace tunefarm::topi {

absl::StatusOr<ScheduledOp> ScheduleGpuReference(const te::Tensor& out,
                                                 const std::vector<te::Tensor>& inlined,
                                                 std::vector<te::Tensor> args, int64_t threads) {
  schedule::Schedule s = schedule::Schedule::Create({out.op()});
  for (const te::Tensor& t : inlined) s[t].compute_inline();
  schedule::Stage& stage = s[out];
  const ir::IterVar fused = FuseOuter(stage, stage.op()->axis, /*parallel=*/false);
  ir::IterVar block, thread;
  stage.split(fused, Imm(threads), &block, &thread);
  stage.bind(block, GpuBlockAxis("blockIdx.x"));
  stage.bind(thread, GpuThreadAxis("threadIdx.x", threads));
  if (!s.error().ok()) return s.error();
  return ScheduledOp{s, std::move(args)};
}

}  // namespace tunefarm::topi
