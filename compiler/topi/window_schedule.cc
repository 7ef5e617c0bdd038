#include "compiler/topi/window_schedule.h"

#include "absl/strings/str_cat.h"
#include "compiler/topi/epilogue.h"
#include "compiler/topi/injective_schedule.h"
#include "compiler/topi/loop_tiling.h"
#include "compiler/topi/pad.h"
#include "compiler/topi/static_shape.h"

namespace tunefarm::topi {

std::string WindowScheduleConfig::ToString() const {
  return absl::StrCat("reg ", reg_w_vectors, "x", vector_lanes, " columns",
                      unroll_window ? ", unroll window" : "", pad_inline ? ", pad inline" : "",
                      parallel ? ", parallel" : "");
}

WindowScheduleConfig DefaultWindowConfig(const te::Tensor& out, const CpuInfo& cpu,
                                         int64_t max_vectors) {
  WindowScheduleConfig c;
  c.vector_lanes = cpu.Lanes(4);
  const int64_t ow = AxisExtent(out.op()->axis[3]);
  c.reg_w_vectors = ow % c.vector_lanes == 0 ? LargestDivisor(ow / c.vector_lanes, max_vectors) : 1;
  c.parallel = cpu.cores > 1;
  return c;
}

absl::StatusOr<ScheduledOp> ScheduleWindowReduction(const WindowScheduleConfig& config,
                                                    const WindowStages& t, const std::string& op) {
  if (config.vector_lanes <= 0 || config.reg_w_vectors <= 0) {
    return absl::InvalidArgumentError(
        absl::StrCat(op, " schedule: vector_lanes and reg_w_vectors must be positive (",
                     config.ToString(), ")"));
  }
  schedule::Schedule s = schedule::Schedule::Create({t.out.op()});
  SchedulePad(s, t.padded, t.data, config.pad_inline,
              InjectiveScheduleConfig{config.vector_lanes, 1, config.parallel});
  absl::StatusOr<te::Tensor> acc = s.cache_write(t.reduced, "local");
  if (!acc.ok()) return acc.status();
  if (!t.reduced.same_as(t.out)) {
    absl::Status inlined = InlineEpilogue(s, t.reduced, t.out, {t.padded}, op.c_str());
    if (!inlined.ok()) return inlined;
  }

  schedule::Stage& out = s[t.out];
  const auto axes = out.op()->axis;  // n, c, oh, ow
  ir::IterVar wi;
  ir::IterVar wo = SplitBy(out, axes[3], config.vector_lanes * config.reg_w_vectors, &wi);
  SplitVectors(out, wi, config.vector_lanes);
  FuseOuter(out, {axes[0], axes[1], axes[2]}, config.parallel);

  schedule::Stage& a = s[*acc];
  a.compute_at(out, wo);
  const auto acc_axes = a.op()->axis;
  const auto& r = a.op()->reduce_axis;  // ry, rx
  auto [av, al] = SplitVectors(a, acc_axes[3], config.vector_lanes);
  Reorder(a, {acc_axes[0], acc_axes[1], acc_axes[2], r[0], r[1], av, al});
  if (config.unroll_window) a.unroll(r[0]).unroll(r[1]);
  if (!s.error().ok()) return s.error();
  return ScheduledOp{s, t.args};
}

}  // namespace tunefarm::topi
