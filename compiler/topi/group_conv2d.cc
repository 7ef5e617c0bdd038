#include "compiler/topi/group_conv2d.h"

#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "compiler/ir/op.h"
#include "compiler/topi/pad.h"
#include "compiler/topi/static_shape.h"

namespace tunefarm::topi {

absl::StatusOr<Conv2dTensors> GroupConv2dCompute(const te::Tensor& data, const te::Tensor& kernel,
                                                 const Window2d& window, int64_t groups) {
  const std::string op = "group_conv2d";
  absl::StatusOr<std::vector<int64_t>> ds = StaticShape(op, data, 4);
  if (!ds.ok()) return ds.status();
  absl::StatusOr<std::vector<int64_t>> ks = StaticShape(op, kernel, 4);
  if (!ks.ok()) return ks.status();
  const std::string shapes = absl::StrCat("data ", ShapeString(*ds), ", kernel ", ShapeString(*ks),
                                          " (O, C/groups, KH, KW), groups ", groups);
  const int64_t n = (*ds)[0], c = (*ds)[1], h = (*ds)[2], w = (*ds)[3];
  const int64_t o = (*ks)[0], kh = (*ks)[2], kw = (*ks)[3];
  if (groups < 1 || c % groups != 0 || o % groups != 0 || (*ks)[1] * groups != c ||
      data.dtype() != kernel.dtype()) {
    return absl::InvalidArgumentError(
        absl::StrCat(op, " (", shapes,
                     "): groups must divide both channel counts, the kernel must read C/groups "
                     "channels, and the dtypes must agree"));
  }
  absl::StatusOr<WindowOutput> out = SlideWindow(op, shapes, window, h, w, kh, kw);
  if (!out.ok()) return out.status();
  Conv2dTensors t{data, kernel, data, te::Tensor(), te::Tensor()};
  absl::StatusOr<te::Tensor> padded =
      PadWindowCompute(data, window, ir::MakeZero(data.dtype()), "group_conv2d_pad");
  if (!padded.ok()) return padded.status();
  t.padded = *padded;
  const int64_t group_in = c / groups, group_out = o / groups;
  ir::IterVar rc = te::reduce_axis({Imm(0), Imm(group_in)}, "rc");
  ir::IterVar ry = te::reduce_axis({Imm(0), Imm(kh)}, "ry");
  ir::IterVar rx = te::reduce_axis({Imm(0), Imm(kw)}, "rx");
  auto body = [&](const std::vector<ir::Var>& i) {
    ir::Expr channel = ir::FloorDiv(i[1], Imm(group_out)) * Imm(group_in) + rc->var;
    ir::Expr y = i[2] * Imm(window.stride_h) + ry->var * Imm(window.dilation_h);
    ir::Expr x = i[3] * Imm(window.stride_w) + rx->var * Imm(window.dilation_w);
    return te::sum(t.padded({i[0], channel, y, x}) * kernel({i[1], rc->var, ry->var, rx->var}),
                   {rc, ry, rx});
  };
  absl::StatusOr<te::Tensor> result =
      te::compute({Imm(n), Imm(o), Imm(out->h), Imm(out->w)}, body, op, {"n", "o", "oh", "ow"});
  if (!result.ok()) return result.status();
  t.out = *result;
  t.cropped = t.out;
  return t;
}

}  // namespace tunefarm::topi
