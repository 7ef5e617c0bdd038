#include "compiler/topi/vector_rows.h"

#include <algorithm>
#include <vector>

#include "compiler/ir/op.h"
#include "compiler/topi/pad.h"
#include "compiler/topi/static_shape.h"

namespace tunefarm::topi {

VectorRows VectorRowsFor(int64_t out_width) {
  VectorRows rows;
  rows.width_multiple = out_width % 16 == 0 ? 1 : (out_width > 16 ? 16 : 8);
  rows.split_strided_columns = true;
  return rows;
}

int64_t VectorRows::RoundUp(int64_t width) const {
  const int64_t m = std::max<int64_t>(width_multiple, 1);
  return CeilDiv(width, m) * m;
}

absl::StatusOr<PaddedRows> PaddedRows::Make(const te::Tensor& data, const Window2d& window,
                                            int64_t h, int64_t w, int64_t kw, int64_t out_w,
                                            const VectorRows& rows, const std::string& name) {
  PaddedRows p;
  p.window_ = window;
  // The columns past the true width read zeros padded on the right.
  const int64_t need_w = (out_w - 1) * window.stride_w + (kw - 1) * window.dilation_w + 1;
  p.window_.pad_right += std::max<int64_t>(0, need_w - (w + window.pad_left + window.pad_right));
  p.split_ = rows.split_strided_columns && window.stride_w > 1;
  if (!p.split_) {
    absl::StatusOr<te::Tensor> padded = PadWindowCompute(data, p.window_, ir::Expr(0.0f), name);
    if (!padded.ok()) return padded.status();
    p.padded_ = *padded;
    return p;
  }
  const Window2d& pw = p.window_;
  const int64_t s = pw.stride_w;
  const int64_t padded_h = h + pw.pad_top + pw.pad_bottom;
  const int64_t padded_w = w + pw.pad_left + pw.pad_right;
  // Padding and splitting in one pass, straight from `data`.
  auto body = [&](const std::vector<ir::Var>& i) {
    ir::Expr y = i[2] - Imm(pw.pad_top);
    ir::Expr x = i[4] * Imm(s) + i[3] - Imm(pw.pad_left);
    ir::Expr inside = y >= Imm(0) && y < Imm(h) && x >= Imm(0) && x < Imm(w);
    return ir::IfThenElse(inside, data({i[0], i[1], y, x}), ir::Cast(data.dtype(), ir::Expr(0.0f)));
  };
  absl::StatusOr<te::Tensor> split = te::compute(
      {data.shape()[0], data.shape()[1], Imm(padded_h), Imm(s), Imm(CeilDiv(padded_w, s))}, body,
      name + "_split", {"n", "c", "y", "phase", "x"});
  if (!split.ok()) return split.status();
  p.padded_ = *split;
  return p;
}

ir::Expr PaddedRows::Read(ir::Expr n, ir::Expr c, ir::Expr y, ir::Expr x, ir::Expr rx) const {
  ir::Expr q = rx * Imm(window_.dilation_w);
  if (!split_) return padded_({n, c, y, x * Imm(window_.stride_w) + q});
  // Column x*s + q is phase q % s, position x + q / s.
  const ir::Expr s = Imm(window_.stride_w);
  return padded_({n, c, y, ir::FloorMod(q, s), x + ir::FloorDiv(q, s)});
}

absl::StatusOr<te::Tensor> CropWidth(const te::Tensor& full, int64_t width,
                                     const std::string& name) {
  absl::StatusOr<std::vector<int64_t>> shape = StaticShape(name, full, 4);
  if (!shape.ok()) return shape.status();
  if ((*shape)[3] == width) return full;
  return te::compute({Imm((*shape)[0]), Imm((*shape)[1]), Imm((*shape)[2]), Imm(width)},
                     [&](const std::vector<ir::Var>& i) {
                       return full({i[0], i[1], i[2], i[3]});
                     },
                     name, {"n", "c", "oh", "ow"});
}

}  // namespace tunefarm::topi
