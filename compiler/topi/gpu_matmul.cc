#include "compiler/topi/gpu_matmul.h"

#include "absl/strings/str_cat.h"
#include "compiler/topi/gpu_common_knobs.h"
#include "compiler/topi/injective_schedule.h"
#include "compiler/topi/loop_tiling.h"

namespace tunefarm::topi {
std::string GpuMatmulScheduleConfig::ToString() const {
  return absl::StrCat("gpu_matmul{m=", m.ToString(), " n=", n.ToString(), " tile_k=", tile_k,
                      " unroll_k=", unroll_k, " unroll_tile=", unroll_tile, "}");
}

int64_t GpuMatmulScheduleConfig::SharedBytes() const {
  return TileBytes({m.Span(), tile_k}) + TileBytes({tile_k, n.Span()});
}

GpuMatmulScheduleConfig DefaultGpuMatmulConfig(int64_t m, int64_t n, int64_t k) {
  GpuMatmulScheduleConfig c;
  c.m = DefaultGpuAxisTile(m, 8, m >= 32 ? 2 : 1);
  c.n = DefaultGpuAxisTile(n, 8, n >= 32 ? 2 : 1);
  c.tile_k = DefaultGpuStep(k, 8);
  return c;
}

absl::StatusOr<ScheduledOp> ScheduleGpuMatmul(const GpuMatmulScheduleConfig& config,
                                              const GemmTensors& t) {
  if (t.batched || t.packed_a.defined() || t.packed_b.defined() || t.blocked.defined()) {
    return absl::FailedPreconditionError(
        "gpu matmul schedule: needs an unbatched, unpacked MatmulCompute");
  }
  if (!config.m.Valid() || !config.n.Valid() || config.tile_k <= 0) {
    return absl::InvalidArgumentError(
        absl::StrCat("gpu matmul schedule: non-positive field in ", config.ToString()));
  }
  if (config.Threads() > kGpuMaxThreadsPerBlock || config.SharedBytes() > kGpuMaxSharedBytes) {
    return absl::InvalidArgumentError(
        absl::StrCat("gpu matmul schedule: ", config.Threads(), " threads and ",
                     config.SharedBytes(), " shared bytes per block exceed the limits (",
                     kGpuMaxThreadsPerBlock, ", ", kGpuMaxSharedBytes, ") in ", config.ToString()));
  }
  const int64_t grid_y = config.m.Blocks(AxisExtent(t.c.op()->axis[0]));
  if (grid_y > kGpuMaxGridYZ) {
    return absl::InvalidArgumentError(absl::StrCat("gpu matmul schedule: ", grid_y,
                                                   " row blocks exceed gridDim.y's limit in ",
                                                   config.ToString()));
  }
  schedule::Schedule s = schedule::Schedule::Create({t.c.op()});
  absl::StatusOr<te::Tensor> cl = s.cache_write(t.c, "local");
  if (!cl.ok()) return cl.status();
  absl::StatusOr<te::Tensor> as = s.cache_read(t.a, "shared", {*cl});
  if (!as.ok()) return as.status();
  absl::StatusOr<te::Tensor> bs = s.cache_read(t.b, "shared", {*cl});
  if (!bs.ok()) return bs.status();

  const GpuBlockThreads threads{{GpuThreadAxis("threadIdx.y", config.m.threads),
                                 GpuThreadAxis("threadIdx.x", config.n.threads)},
                                {config.m.threads, config.n.threads}};
  schedule::Stage& c = s[t.c];
  const auto axes = c.op()->axis;  // m, n
  const GpuAxisLoops lm = SplitGpuAxis(c, axes[0], config.m);
  const GpuAxisLoops ln = SplitGpuAxis(c, axes[1], config.n);
  c.reorder({lm.block, ln.block, lm.vthread, ln.vthread, lm.thread, ln.thread, lm.inner, ln.inner});
  c.bind(lm.block, GpuBlockAxis("blockIdx.y"));
  c.bind(ln.block, GpuBlockAxis("blockIdx.x"));
  c.bind(lm.vthread, GpuThreadAxis("vthread", config.m.vthreads, "vy"));
  c.bind(ln.vthread, GpuThreadAxis("vthread", config.n.vthreads, "vx"));
  c.bind(lm.thread, threads.axes[0]);
  c.bind(ln.thread, threads.axes[1]);

  // Each thread accumulates its register tile over the reduction in steps of tile_k.
  schedule::Stage& acc = s[*cl];
  acc.compute_at(c, ln.thread);
  const auto acc_axes = acc.op()->axis;
  ir::IterVar ki;
  ir::IterVar ko = SplitBy(acc, acc.op()->reduce_axis[0], config.tile_k, &ki);
  acc.reorder({ko, ki, acc_axes[0], acc_axes[1]});
  if (config.unroll_k) acc.unroll(ki);
  if (config.unroll_tile) {
    acc.unroll(acc_axes[0]);
    acc.unroll(acc_axes[1]);
  }

  // Per step, the block loads its A rows and B columns into shared memory together.
  for (const te::Tensor& shared : {*as, *bs}) {
    schedule::Stage& st = s[shared];
    st.compute_at(acc, ko);
    CooperativeFetch(st, threads);
  }
  if (!s.error().ok()) return s.error();
  return ScheduledOp{s, {t.a, t.b, t.c}};
}

}  // namespace tunefarm::topi
