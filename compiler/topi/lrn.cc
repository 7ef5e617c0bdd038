#include "compiler/topi/lrn.h"

#include <vector>

#include "absl/strings/str_cat.h"
#include "compiler/ir/op.h"
#include "compiler/topi/static_shape.h"

namespace tunefarm::topi {

absl::StatusOr<LrnTensors> LrnCompute(const te::Tensor& x, const LrnParams& params) {
  absl::StatusOr<std::vector<int64_t>> xs = StaticShape("lrn", x);
  if (!xs.ok()) return xs.status();
  if (xs->size() < 2 || params.size < 1) {
    return absl::InvalidArgumentError(absl::StrCat("lrn: data ", ShapeString(*xs), ", size ",
                                                   params.size,
                                                   ": needs a channel axis and a size >= 1"));
  }
  const int64_t channels = (*xs)[1];
  const int64_t before = (params.size - 1) / 2;
  LrnTensors t;
  ir::IterVar r = te::reduce_axis({Imm(0), Imm(params.size)}, "r");
  absl::StatusOr<te::Tensor> sum = te::compute(
      x.shape(),
      [&](const std::vector<ir::Var>& i) {
        std::vector<ir::Expr> index(i.begin(), i.end());
        ir::Expr c = i[1] + r->var - Imm(before);
        index[1] = c;
        // Taps outside [0, C) add nothing; the read is guarded so it never leaves x.
        ir::Expr inside = c >= Imm(0) && c < Imm(channels);
        ir::Expr v = ir::IfThenElse(inside, x(index), ir::MakeZero(x.dtype()));
        return te::sum(v * v, {r});
      },
      "lrn_square_sum");
  if (!sum.ok()) return sum.status();
  t.square_sum = *sum;
  const ir::DataType dt = x.dtype();
  absl::StatusOr<te::Tensor> out = te::compute(
      x.shape(),
      [&](const std::vector<ir::Var>& i) {
        std::vector<ir::Expr> index(i.begin(), i.end());
        ir::Expr base = ir::MakeConst(dt, params.bias) +
                        ir::MakeConst(dt, params.alpha / static_cast<double>(params.size)) *
                            t.square_sum(index);
        return ir::Div(x(index),
                       ir::Call(ir::Intrinsic::kPow, {base, ir::MakeConst(dt, params.beta)}));
      },
      "lrn");
  if (!out.ok()) return out.status();
  t.out = *out;
  return t;
}

}  // namespace tunefarm::topi
