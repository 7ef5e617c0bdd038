#include "compiler/topi/batch_norm.h"

#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "compiler/ir/op.h"
#include "compiler/topi/static_shape.h"

namespace tunefarm::topi {

absl::StatusOr<BatchNormTensors> BatchNormInferenceCompute(
    const te::Tensor& x, const te::Tensor& gamma, const te::Tensor& beta, const te::Tensor& mean,
    const te::Tensor& var, double epsilon, int axis) {
  absl::StatusOr<std::vector<int64_t>> xs = StaticShape("batch_norm", x);
  if (!xs.ok()) return xs.status();
  if (axis < 0 || axis >= static_cast<int>(xs->size())) {
    return absl::InvalidArgumentError(
        absl::StrCat("batch_norm: axis ", axis, " is not an axis of ", ShapeString(*xs)));
  }
  const int64_t channels = (*xs)[axis];
  for (const te::Tensor* p : {&gamma, &beta, &mean, &var}) {
    absl::StatusOr<std::vector<int64_t>> ps = StaticShape("batch_norm", *p, 1);
    if (!ps.ok()) return ps.status();
    if ((*ps)[0] != channels || p->dtype() != x.dtype()) {
      return absl::InvalidArgumentError(absl::StrCat(
          "batch_norm: ", p->name(), " ", ShapeString(*ps), " must hold one value per channel (",
          channels, ") of data ", ShapeString(*xs), ", in its dtype"));
    }
  }
  BatchNormTensors t;
  const ir::Expr eps = ir::MakeConst(x.dtype(), epsilon);
  absl::StatusOr<te::Tensor> scale = te::compute(
      {Imm(channels)},
      [&](const std::vector<ir::Var>& c) {
        return ir::Div(gamma({c[0]}), ir::Call(ir::Intrinsic::kSqrt, {var({c[0]}) + eps}));
      },
      "batch_norm_scale");
  if (!scale.ok()) return scale.status();
  t.scale = *scale;
  absl::StatusOr<te::Tensor> shift = te::compute(
      {Imm(channels)},
      [&](const std::vector<ir::Var>& c) { return beta({c[0]}) - mean({c[0]}) * t.scale({c[0]}); },
      "batch_norm_shift");
  if (!shift.ok()) return shift.status();
  t.shift = *shift;
  absl::StatusOr<te::Tensor> out = te::compute(
      x.shape(),
      [&](const std::vector<ir::Var>& i) {
        return x(std::vector<ir::Expr>(i.begin(), i.end())) * t.scale({i[axis]}) +
               t.shift({i[axis]});
      },
      "batch_norm");
  if (!out.ok()) return out.status();
  t.out = *out;
  return t;
}

}  // namespace tunefarm::topi
