#include "compiler/topi/pool.h"

#include <vector>

#include "absl/strings/str_cat.h"
#include "compiler/ir/op.h"
#include "compiler/topi/injective_schedule.h"
#include "compiler/topi/loop_tiling.h"
#include "compiler/topi/pad.h"
#include "compiler/topi/static_shape.h"

namespace tunefarm::topi {
namespace {

// How many taps k in [0, taps) of a window starting at padded position `start` with dilation
// `d` land in the input, which spans [lo, hi) of the padded axis.
ir::Expr TapsInside(ir::Expr start, int64_t taps, int64_t d, int64_t lo, int64_t hi) {
  if (d == 1) {
    return ir::Min(start + Imm(taps), Imm(hi)) - ir::Max(start, Imm(lo));
  }
  // First tap at or past lo: ceil((lo - start) / d), at least 0; one past the last below hi.
  ir::Expr first = ir::Max(ir::FloorDiv(Imm(lo + d - 1) - start, Imm(d)), Imm(0));
  ir::Expr end = ir::Min(ir::FloorDiv(Imm(hi + d - 1) - start, Imm(d)), Imm(taps));
  return end - first;
}

}  // namespace

absl::StatusOr<Pool2dTensors> Pool2dCompute(const te::Tensor& data, const Pool2dParams& params) {
  const std::string op = params.type == PoolType::kMax ? "max_pool2d" : "avg_pool2d";
  absl::StatusOr<std::vector<int64_t>> ds = StaticShape(op, data, 4);
  if (!ds.ok()) return ds.status();
  const int64_t kh = params.kernel_h, kw = params.kernel_w;
  const std::string shapes = absl::StrCat("data ", ShapeString(*ds), ", window ", kh, "x", kw);
  if (kh <= 0 || kw <= 0) {
    return absl::InvalidArgumentError(absl::StrCat(op, " (", shapes, "): empty window"));
  }
  const Window2d& win = params.window;
  const int64_t h = (*ds)[2], w = (*ds)[3];
  absl::StatusOr<WindowOutput> out = SlideWindow(op, shapes, win, h, w, kh, kw);
  if (!out.ok()) return out.status();
  const bool is_max = params.type == PoolType::kMax;
  Pool2dTensors t{data, data, te::Tensor(), te::Tensor()};
  ir::Expr fill = is_max ? ir::MinValue(data.dtype()) : ir::MakeZero(data.dtype());
  absl::StatusOr<te::Tensor> padded =
      PadCompute(data, {0, 0, win.pad_top, win.pad_left}, {0, 0, win.pad_bottom, win.pad_right},
                 fill, absl::StrCat(op, "_pad"));
  if (!padded.ok()) return padded.status();
  t.padded = *padded;
  ir::IterVar ry = te::reduce_axis({Imm(0), Imm(kh)}, "ry");
  ir::IterVar rx = te::reduce_axis({Imm(0), Imm(kw)}, "rx");
  auto window_body = [&](const std::vector<ir::Var>& i) {
    ir::Expr y = i[2] * Imm(win.stride_h) + ry->var * Imm(win.dilation_h);
    ir::Expr x = i[3] * Imm(win.stride_w) + rx->var * Imm(win.dilation_w);
    ir::Expr value = t.padded({i[0], i[1], y, x});
    return is_max ? te::max(value, {ry, rx}) : te::sum(value, {ry, rx});
  };
  std::vector<ir::Expr> out_shape = {Imm((*ds)[0]), Imm((*ds)[1]), Imm(out->h), Imm(out->w)};
  absl::StatusOr<te::Tensor> pooled = te::compute(
      out_shape, window_body, is_max ? op : absl::StrCat(op, "_sum"), {"n", "c", "oh", "ow"});
  if (!pooled.ok()) return pooled.status();
  t.pooled = t.out = *pooled;
  if (is_max) return t;
  auto avg_body = [&](const std::vector<ir::Var>& i) {
    ir::Expr count = Imm(kh * kw);
    if (!params.count_include_pad) {
      count =
          TapsInside(i[2] * Imm(win.stride_h), kh, win.dilation_h, win.pad_top, win.pad_top + h) *
          TapsInside(i[3] * Imm(win.stride_w), kw, win.dilation_w, win.pad_left, win.pad_left + w);
    }
    return ir::Div(t.pooled({i[0], i[1], i[2], i[3]}), ir::Cast(data.dtype(), count));
  };
  absl::StatusOr<te::Tensor> avg = te::compute(out_shape, avg_body, op, {"n", "c", "oh", "ow"});
  if (!avg.ok()) return avg.status();
  t.out = *avg;
  return t;
}

std::string Pool2dScheduleConfig::ToString() const {
  return absl::StrCat("reg ", reg_w_vectors, "x", vector_lanes, " columns",
                      unroll_window ? ", unroll window" : "", pad_inline ? ", pad inline" : "",
                      parallel ? ", parallel" : "");
}

Pool2dScheduleConfig DefaultPool2dConfig(const Pool2dTensors& t, const CpuInfo& cpu) {
  Pool2dScheduleConfig c;
  c.vector_lanes = cpu.Lanes(4);
  // As many vectors of a row as divide it (up to 4), so no tile takes the scalar tail path.
  const int64_t ow = AxisExtent(t.out.op()->axis[3]);
  c.reg_w_vectors = ow % c.vector_lanes == 0 ? LargestDivisor(ow / c.vector_lanes, 4) : 1;
  c.parallel = cpu.cores > 1;
  return c;
}

absl::StatusOr<ScheduledOp> SchedulePool2d(const Pool2dScheduleConfig& config,
                                           const Pool2dTensors& t) {
  if (config.vector_lanes <= 0 || config.reg_w_vectors <= 0) {
    return absl::InvalidArgumentError(
        absl::StrCat("pool2d schedule: vector_lanes and reg_w_vectors must be positive (",
                     config.ToString(), ")"));
  }
  schedule::Schedule s = schedule::Schedule::Create({t.out.op()});
  SchedulePad(s, t.padded, t.data, config.pad_inline,
              InjectiveScheduleConfig{config.vector_lanes, 1, config.parallel});
  // The window's reduction accumulates in a local tile; for average, the division reads it.
  absl::StatusOr<te::Tensor> acc = s.cache_write(t.pooled, "local");
  if (!acc.ok()) return acc.status();
  if (!t.pooled.same_as(t.out)) s[t.pooled].compute_inline();

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
  return ScheduledOp{s, {t.data, t.out}};
}

}  // namespace tunefarm::topi
