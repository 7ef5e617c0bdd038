#include "compiler/topi/conv2d.h"

#include <algorithm>
#include <vector>

#include "absl/strings/str_cat.h"
#include "compiler/ir/op.h"
#include "compiler/topi/epilogue.h"
#include "compiler/topi/injective_schedule.h"
#include "compiler/topi/loop_tiling.h"
#include "compiler/topi/pad.h"
#include "compiler/topi/static_shape.h"
#include "compiler/topi/vector_rows.h"

namespace tunefarm::topi {

absl::StatusOr<Conv2dTensors> Conv2dCompute(const te::Tensor& data, const te::Tensor& kernel,
                                            const Window2d& window, const VectorRows& rows) {
  absl::StatusOr<std::vector<int64_t>> ds = StaticShape("conv2d", data, 4);
  if (!ds.ok()) return ds.status();
  absl::StatusOr<std::vector<int64_t>> ks = StaticShape("conv2d", kernel, 4);
  if (!ks.ok()) return ks.status();
  const std::string shapes =
      absl::StrCat("data ", ShapeString(*ds), ", kernel ", ShapeString(*ks), " (OIHW)");
  const int64_t n = (*ds)[0], c = (*ds)[1], h = (*ds)[2], w = (*ds)[3];
  const int64_t o = (*ks)[0], kh = (*ks)[2], kw = (*ks)[3];
  if ((*ks)[1] != c || data.dtype() != kernel.dtype()) {
    return absl::InvalidArgumentError(
        absl::StrCat("conv2d (", shapes, "): the kernel's input channels must equal the data's (",
                     c, ") and the dtypes must agree"));
  }
  absl::StatusOr<WindowOutput> out = SlideWindow("conv2d", shapes, window, h, w, kh, kw);
  if (!out.ok()) return out.status();
  const int64_t out_w = rows.RoundUp(out->w);
  absl::StatusOr<PaddedRows> padded =
      PaddedRows::Make(data, window, h, w, kw, out_w, rows, "conv2d_pad");
  if (!padded.ok()) return padded.status();
  Conv2dTensors t{data, kernel, padded->tensor(), te::Tensor(), te::Tensor()};
  ir::IterVar rc = te::reduce_axis({Imm(0), Imm(c)}, "rc");
  ir::IterVar ry = te::reduce_axis({Imm(0), Imm(kh)}, "ry");
  ir::IterVar rx = te::reduce_axis({Imm(0), Imm(kw)}, "rx");
  auto body = [&](const std::vector<ir::Var>& i) {
    ir::Expr y = i[2] * Imm(window.stride_h) + ry->var * Imm(window.dilation_h);
    return te::sum(
        padded->Read(i[0], rc->var, y, i[3], rx->var) * kernel({i[1], rc->var, ry->var, rx->var}),
        {rc, ry, rx});
  };
  absl::StatusOr<te::Tensor> result = te::compute({Imm(n), Imm(o), Imm(out->h), Imm(out_w)}, body,
                                                  "conv2d", {"n", "o", "oh", "ow"});
  if (!result.ok()) return result.status();
  t.out = *result;
  absl::StatusOr<te::Tensor> cropped = CropWidth(t.out, out->w, "conv2d_crop");
  if (!cropped.ok()) return cropped.status();
  t.cropped = *cropped;
  return t;
}

std::string Conv2dScheduleConfig::ToString() const {
  return absl::StrCat("reg ", reg_o, " channels x ", reg_w_vectors, "x", vector_lanes, " columns, ",
                      order == ConvReduceOrder::kChannelFirst ? "c,kh,kw" : "kh,kw,c",
                      unroll_kw ? ", unroll kw" : "", pad_inline ? ", pad inline" : "",
                      parallel ? ", parallel" : "");
}

Conv2dScheduleConfig DefaultConv2dConfig(const Conv2dTensors& t, const CpuInfo& cpu) {
  Conv2dScheduleConfig c;
  const int64_t o = AxisExtent(t.out.op()->axis[1]), ow = AxisExtent(t.out.op()->axis[3]);
  // Vectors that divide the row (a ragged last vector is computed lane by lane): the widest of the
  // register's width, half or a quarter of it (at least 4 lanes) that divides OW, else the one
  // that wastes the fewest lanes.
  c.vector_lanes = cpu.Lanes(4);
  int64_t best_waste = -1;
  for (int64_t lanes = cpu.Lanes(4); lanes >= 4 && lanes * 4 >= cpu.Lanes(4); lanes /= 2) {
    const int64_t waste = CeilDiv(ow, lanes) * lanes - ow;
    if (best_waste < 0 || waste < best_waste) {
      best_waste = waste;
      c.vector_lanes = lanes;
    }
  }
  // Two vectors of columns when the width allows, else one.
  c.reg_w_vectors = ow >= 2 * c.vector_lanes && ow % (2 * c.vector_lanes) == 0 ? 2 : 1;
  // Accumulators, one input vector per column vector and one broadcast weight must fit.
  const int64_t max_o = (cpu.vector_registers - c.reg_w_vectors - 1) / c.reg_w_vectors;
  c.reg_o = LargestDivisor(o, std::min<int64_t>(max_o, 8));
  if (c.reg_o < 2) c.reg_o = std::min<int64_t>(o, 4);
  c.pad_inline = false;
  c.parallel = cpu.cores > 1;
  return c;
}

absl::StatusOr<ScheduledOp> ScheduleConv2d(const Conv2dScheduleConfig& config,
                                           const Conv2dTensors& t, const te::Tensor& output) {
  if (config.vector_lanes <= 0 || config.reg_w_vectors <= 0 || config.reg_o <= 0) {
    return absl::InvalidArgumentError(
        absl::StrCat("conv2d schedule: vector_lanes, reg_w_vectors and reg_o must be positive (",
                     config.ToString(), ")"));
  }
  const te::Tensor& result = output.defined() ? output : t.out;
  schedule::Schedule s = schedule::Schedule::Create({result.op()});
  InjectiveScheduleConfig pad_config{config.vector_lanes, 1, config.parallel};
  SchedulePad(s, t.padded, t.data, config.pad_inline, pad_config);
  absl::StatusOr<te::Tensor> acc = s.cache_write(t.out, "local");
  if (!acc.ok()) return acc.status();
  if (!result.same_as(t.out)) {
    absl::Status inlined = InlineEpilogue(s, t.out, result, {t.padded}, "conv2d");
    if (!inlined.ok()) return inlined;
  }

  schedule::Stage& out = s[result];
  const auto axes = out.op()->axis;  // n, o, oh, ow
  ir::IterVar oi, wi;
  ir::IterVar oo = SplitBy(out, axes[1], config.reg_o, &oi);
  ir::IterVar wo = SplitBy(out, axes[3], config.vector_lanes * config.reg_w_vectors, &wi);
  auto [wv, wl] = SplitVectors(out, wi, config.vector_lanes);
  Reorder(out, {axes[0], oo, axes[2], wo, oi, wv, wl});
  out.unroll(oi);
  FuseOuter(out, {axes[0], oo, axes[2]}, config.parallel);

  schedule::Stage& a = s[*acc];
  a.compute_at(out, wo);
  const auto acc_axes = a.op()->axis;
  const auto& r = a.op()->reduce_axis;  // rc, ry, rx
  auto [av, al] = SplitVectors(a, acc_axes[3], config.vector_lanes);
  if (config.order == ConvReduceOrder::kChannelFirst) {
    Reorder(a, {acc_axes[0], acc_axes[2], r[0], r[1], r[2], acc_axes[1], av, al});
  } else {
    Reorder(a, {acc_axes[0], acc_axes[2], r[1], r[2], r[0], acc_axes[1], av, al});
  }
  a.unroll(acc_axes[1]);
  if (config.unroll_kw) a.unroll(r[2]);
  if (!s.error().ok()) return s.error();
  return ScheduledOp{s, {t.data, t.kernel, result}};
}

}  // namespace tunefarm::topi
