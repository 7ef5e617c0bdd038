#include "compiler/topi/pool.h"

#include <algorithm>
#include <vector>

#include "absl/strings/str_cat.h"
#include "compiler/ir/op.h"
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

// The output extent in ceil mode: windows rounded up, less a last one that would start in the
// end padding (it would read no input).
int64_t CeilOutput(int64_t in, int64_t k, int64_t stride, int64_t dilation, int64_t begin,
                   int64_t end) {
  const int64_t span = in + begin + end - ((k - 1) * dilation + 1);
  int64_t n = CeilDiv(span, stride) + 1;
  if ((n - 1) * stride >= in + begin) --n;
  return n;
}

}  // namespace

absl::StatusOr<Pool2dTensors> Pool2dCompute(const te::Tensor& data, const Pool2dParams& params) {
  const std::string op = params.type == PoolType::kMax ? "max_pool2d" : "avg_pool2d";
  absl::StatusOr<std::vector<int64_t>> ds = StaticShape(op, data);
  if (!ds.ok()) return ds.status();
  if (ds->size() != 4 && ds->size() != 5) {
    return absl::InvalidArgumentError(
        absl::StrCat(op, ": data ", ShapeString(*ds), " must be NCHW or blocked NCHW[c]c"));
  }
  const bool blocked = ds->size() == 5;
  // The pixel (n, c, y, x) of a tensor of the data's layout: a blocked one's channel lanes last.
  auto at = [&](const te::Tensor& t, const std::vector<ir::Var>& i, ir::Expr y, ir::Expr x) {
    std::vector<ir::Expr> index = {i[0], i[1], std::move(y), std::move(x)};
    if (blocked) index.push_back(i[4]);
    return t(std::move(index));
  };
  const int64_t kh = params.kernel_h, kw = params.kernel_w;
  const std::string shapes = absl::StrCat("data ", ShapeString(*ds), ", window ", kh, "x", kw);
  if (kh <= 0 || kw <= 0) {
    return absl::InvalidArgumentError(absl::StrCat(op, " (", shapes, "): empty window"));
  }
  const int64_t h = (*ds)[2], w = (*ds)[3];
  absl::StatusOr<WindowOutput> out = SlideWindow(op, shapes, params.window, h, w, kh, kw);
  if (!out.ok()) return out.status();
  // `win` pads the end further in ceil mode, so the kept partial windows read padding.
  Window2d win = params.window;
  if (params.ceil_mode) {
    out->h = CeilOutput(h, kh, win.stride_h, win.dilation_h, win.pad_top, win.pad_bottom);
    out->w = CeilOutput(w, kw, win.stride_w, win.dilation_w, win.pad_left, win.pad_right);
    win.pad_bottom = std::max(win.pad_bottom, (out->h - 1) * win.stride_h +
                                                  (kh - 1) * win.dilation_h + 1 - h - win.pad_top);
    win.pad_right = std::max(win.pad_right, (out->w - 1) * win.stride_w +
                                                (kw - 1) * win.dilation_w + 1 - w - win.pad_left);
  }
  const bool is_max = params.type == PoolType::kMax;
  Pool2dTensors t{data, data, te::Tensor(), te::Tensor()};
  ir::Expr fill = is_max ? ir::MinValue(data.dtype()) : ir::MakeZero(data.dtype());
  absl::StatusOr<te::Tensor> padded = PadWindowCompute(data, win, fill, absl::StrCat(op, "_pad"));
  if (!padded.ok()) return padded.status();
  t.padded = *padded;
  ir::IterVar ry = te::reduce_axis({Imm(0), Imm(kh)}, "ry");
  ir::IterVar rx = te::reduce_axis({Imm(0), Imm(kw)}, "rx");
  auto window_body = [&](const std::vector<ir::Var>& i) {
    ir::Expr y = i[2] * Imm(win.stride_h) + ry->var * Imm(win.dilation_h);
    ir::Expr x = i[3] * Imm(win.stride_w) + rx->var * Imm(win.dilation_w);
    ir::Expr value = at(t.padded, i, y, x);
    return is_max ? te::max(value, {ry, rx}) : te::sum(value, {ry, rx});
  };
  std::vector<ir::Expr> out_shape = {Imm((*ds)[0]), Imm((*ds)[1]), Imm(out->h), Imm(out->w)};
  std::vector<std::string> axes = {"n", "c", "oh", "ow"};
  if (blocked) {
    out_shape.push_back(Imm((*ds)[4]));
    axes = {"n", "cb", "oh", "ow", "c"};
  }
  absl::StatusOr<te::Tensor> pooled =
      te::compute(out_shape, window_body, is_max ? op : absl::StrCat(op, "_sum"), axes);
  if (!pooled.ok()) return pooled.status();
  t.pooled = t.out = *pooled;
  if (is_max) return t;
  auto avg_body = [&](const std::vector<ir::Var>& i) {
    ir::Expr count = Imm(kh * kw);
    const Window2d& given = params.window;
    if (params.count_include_pad && params.ceil_mode) {
      count = TapsInside(i[2] * Imm(win.stride_h), kh, win.dilation_h, 0,
                         given.pad_top + h + given.pad_bottom) *
              TapsInside(i[3] * Imm(win.stride_w), kw, win.dilation_w, 0,
                         given.pad_left + w + given.pad_right);
    } else if (!params.count_include_pad) {
      count =
          TapsInside(i[2] * Imm(win.stride_h), kh, win.dilation_h, win.pad_top, win.pad_top + h) *
          TapsInside(i[3] * Imm(win.stride_w), kw, win.dilation_w, win.pad_left, win.pad_left + w);
    }
    return ir::Div(at(t.pooled, i, i[2], i[3]), ir::Cast(data.dtype(), count));
  };
  absl::StatusOr<te::Tensor> avg = te::compute(out_shape, avg_body, op, axes);
  if (!avg.ok()) return avg.status();
  t.out = *avg;
  return t;
}

Pool2dScheduleConfig DefaultPool2dConfig(const Pool2dTensors& t, const CpuInfo& cpu) {
  return DefaultWindowConfig(t.out, cpu, /*max_vectors=*/4);
}

// The window's reduction accumulates in a local tile; for average, the division reads it.
absl::StatusOr<ScheduledOp> SchedulePool2d(const Pool2dScheduleConfig& config,
                                           const Pool2dTensors& t, const te::Tensor& output) {
  const te::Tensor& result = output.defined() ? output : t.out;
  return ScheduleWindowReduction(config, {t.data, t.padded, t.pooled, result, {t.data, result}},
                                 "pool2d");
}

absl::StatusOr<ScheduledOp> SchedulePool2dNchwc(const BlockedWindowScheduleConfig& config,
                                                const Pool2dTensors& t, const te::Tensor& output) {
  absl::StatusOr<std::vector<int64_t>> ds = StaticShape("pool2d_nchwc", t.data, 5);
  if (!ds.ok()) return ds.status();
  const te::Tensor& result = output.defined() ? output : t.out;
  return ScheduleBlockedWindowReduction(
      config, {t.data, t.padded, t.pooled, result, {t.data, result}, (*ds)[4]}, "pool2d_nchwc");
}

}  // namespace tunefarm::topi
