#include "compiler/topi/conv2d_int8.h"

#include <algorithm>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "compiler/intrin/dot_int8.h"
#include "compiler/ir/op.h"
#include "compiler/topi/epilogue.h"
#include "compiler/topi/loop_tiling.h"

namespace tunefarm::topi {
namespace {

std::vector<int64_t> Dims(const te::Tensor& t) {
  std::vector<int64_t> d;
  for (const ir::Expr& e : t.shape()) d.push_back(ir::AsConstInt(e).value_or(-1));
  return d;
}

std::string Text(const std::vector<int64_t>& d) { return absl::StrJoin(d, "x"); }

}  // namespace

std::string Conv2dInt8Config::ToString() const {
  return absl::StrCat("reg_w ", reg_w, parallel ? ", parallel" : "");
}

absl::StatusOr<Conv2dInt8Tensors> Conv2dInt8Compute(const te::Tensor& data,
                                                    const te::Tensor& kernel,
                                                    const Window2d& window, int64_t pad_value) {
  const std::vector<int64_t> d = Dims(data), k = Dims(kernel);
  const std::string shapes = absl::StrCat("data ", Text(d), ", kernel ", Text(k));
  auto fail = [&](const std::string& why) {
    return absl::InvalidArgumentError(absl::StrCat("conv2d_int8 (", shapes, "): ", why));
  };
  if (d.size() != 5 || k.size() != 7) return fail("data must be rank 5 and the kernel rank 7");
  if (data.dtype() != ir::DataType::UInt(8) || kernel.dtype() != ir::DataType::Int(8)) {
    return fail("data must be uint8 and the kernel int8");
  }
  for (int64_t v : d) {
    if (v <= 0) return fail("shapes must be constant and positive");
  }
  const int64_t icb = d[4], lanes = k[5];
  if (icb % 4 != 0 || k[1] != d[1] || k[4] * 4 != icb || k[6] != 4) {
    return fail("the kernel must be [O/L][C/c][KH][KW][c/4][L][4] for data [N][C/c][H][W][c]");
  }
  if (pad_value < 0 || pad_value > 255) return fail("the pad value must be a uint8");
  absl::StatusOr<WindowOutput> o =
      SlideWindow("conv2d_int8", shapes, window, d[2], d[3], k[2], k[3]);
  if (!o.ok()) return o.status();
  Conv2dInt8Tensors t;
  t.data = data;
  t.kernel = kernel;
  t.ic_block = icb;
  t.lanes = lanes;
  auto i32 = [](int64_t v) { return ir::Expr(static_cast<int>(v)); };
  t.padded = data;
  if (window.has_padding()) {
    const int64_t ph = d[2] + window.pad_top + window.pad_bottom;
    const int64_t pw = d[3] + window.pad_left + window.pad_right;
    absl::StatusOr<te::Tensor> padded = te::compute(
        {i32(d[0]), i32(d[1]), i32(ph), i32(pw), i32(icb)},
        [&](const std::vector<ir::Var>& i) {
          ir::Expr y = i[2] - i32(window.pad_top), x = i[3] - i32(window.pad_left);
          ir::Expr inside = y >= 0 && y < i32(d[2]) && x >= 0 && x < i32(d[3]);
          return ir::IfThenElse(inside, data({i[0], i[1], y, x, i[4]}),
                                ir::IntImm(ir::DataType::UInt(8), pad_value));
        },
        "conv2d_int8_pad");
    if (!padded.ok()) return padded.status();
    t.padded = *padded;
  }
  ir::IterVar cb = te::reduce_axis(ir::Range{0, i32(d[1])}, "cb");
  ir::IterVar ry = te::reduce_axis(ir::Range{0, i32(k[2])}, "kh");
  ir::IterVar rx = te::reduce_axis(ir::Range{0, i32(k[3])}, "kw");
  ir::IterVar rc = te::reduce_axis(ir::Range{0, i32(icb)}, "ic");
  const ir::DataType i32t = ir::DataType::Int(32);
  absl::StatusOr<te::Tensor> out =
      te::compute({i32(d[0]), i32(k[0]), i32(o->h), i32(o->w), i32(lanes)},
                  [&](const std::vector<ir::Var>& i) {
                    ir::Expr y = i[2] * i32(window.stride_h) + ry->var * i32(window.dilation_h);
                    ir::Expr x = i[3] * i32(window.stride_w) + rx->var * i32(window.dilation_w);
                    ir::Expr a = t.padded({i[0], cb->var, y, x, rc->var});
                    ir::Expr w = kernel({i[1], cb->var, ry->var, rx->var, ir::FloorDiv(rc->var, 4),
                                         i[4], ir::FloorMod(rc->var, 4)});
                    return te::sum(ir::Cast(i32t, a) * ir::Cast(i32t, w), {cb, ry, rx, rc});
                  },
                  "conv2d_int8", {"n", "ob", "y", "x", "lane"});
  if (!out.ok()) return out.status();
  t.out = *out;
  return t;
}

Conv2dInt8Config DefaultConv2dInt8Config(const Conv2dInt8Tensors& t, const CpuInfo& cpu) {
  Conv2dInt8Config c;
  const int64_t width = ir::AsConstInt(t.out.shape()[3]).value_or(1);
  // Accumulators plus the weight vector and the broadcast input in the registers.
  c.reg_w = std::clamp<int64_t>(std::min<int64_t>(cpu.vector_registers - 4, 14), 1, width);
  c.parallel = cpu.cores > 1;
  return c;
}

absl::StatusOr<ScheduledOp> ScheduleConv2dInt8(const Conv2dInt8Config& config,
                                               const Conv2dInt8Tensors& t,
                                               const te::Tensor& epilogue) {
  if (config.reg_w < 1) {
    return absl::InvalidArgumentError("conv2d_int8 schedule: reg_w must be positive");
  }
  absl::StatusOr<schedule::TensorIntrin> dot =
      intrin::DotInt8Intrin(static_cast<int>(t.lanes), ir::DataType::UInt(8), ir::DataType::Int(8));
  if (!dot.ok()) return dot.status();
  const te::Tensor& out = epilogue.defined() ? epilogue : t.out;
  schedule::Schedule s = schedule::Schedule::Create({out.op()});
  if (epilogue.defined()) {
    if (absl::Status st = InlineEpilogue(s, t.out, out, {t.padded}, "conv2d_int8"); !st.ok()) {
      return st;
    }
  }
  absl::StatusOr<te::Tensor> acc = s.cache_write(t.out, "local");
  if (!acc.ok()) return acc.status();
  // The epilogue reads the accumulators straight from the registers.
  if (epilogue.defined()) s[t.out].compute_inline();

  // The output: (n, out block, row) fused and parallel, then register tiles of reg_w columns.
  schedule::Stage& c = s[out];
  const auto axes = c.op()->axis;
  ir::IterVar xi;
  ir::IterVar xo = SplitBy(c, axes[3], config.reg_w, &xi);
  c.reorder({axes[0], axes[1], axes[2], xo, xi, axes[4]});
  FuseOuter(c, {axes[0], axes[1], axes[2]}, config.parallel);
  c.unroll(xi);
  c.vectorize(axes[4]);

  // The accumulators: over (channel block, kh, kw, quad), the tile's columns unrolled, each
  // column's L channels one dot instruction.
  schedule::Stage& a = s[*acc];
  a.compute_at(c, xo);
  const auto aa = a.op()->axis;
  const auto r = a.op()->reduce_axis;
  ir::IterVar c4;
  ir::IterVar quad = SplitBy(a, r[3], 4, &c4);
  a.reorder({aa[0], aa[1], aa[2], r[0], r[1], r[2], quad, aa[3], aa[4], c4});
  a.unroll(aa[3]);
  a.tensorize(aa[4], *dot);
  if (t.padded.op() != t.data.op()) s[t.padded].compute_root();
  if (!s.error().ok()) return s.error();
  return ScheduledOp{s, {t.data, t.kernel, out}};
}

std::vector<int8_t> PackConv2dInt8Kernel(const int8_t* w, int64_t o, int64_t c, int64_t kh,
                                         int64_t kw, int64_t ic_block, int64_t lanes) {
  const int64_t ob = (o + lanes - 1) / lanes, cb = (c + ic_block - 1) / ic_block;
  std::vector<int8_t> packed(static_cast<size_t>(ob * cb * kh * kw * ic_block * lanes), 0);
  for (int64_t oc = 0; oc < o; ++oc) {
    for (int64_t ic = 0; ic < c; ++ic) {
      for (int64_t y = 0; y < kh; ++y) {
        for (int64_t x = 0; x < kw; ++x) {
          const int64_t q = (ic % ic_block) / 4;
          const int64_t at =
              (((((oc / lanes * cb + ic / ic_block) * kh + y) * kw + x) * (ic_block / 4) + q) *
                   lanes +
               oc % lanes) *
                  4 +
              ic % 4;
          packed[static_cast<size_t>(at)] = w[((oc * c + ic) * kh + y) * kw + x];
        }
      }
    }
  }
  return packed;
}

}  // namespace tunefarm::topi
