#include "compiler/topi/layer_norm.h"

#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "compiler/ir/op.h"
#include "compiler/topi/static_shape.h"

namespace tunefarm::topi {
namespace {

using ir::Expr;

// The index into a parameter of the normalized axes' trailing shape (aligned at the right, a
// dimension of 1 stretched) for x's index `i`.
std::vector<Expr> ParameterIndex(const te::Tensor& p, const std::vector<ir::Var>& i) {
  std::vector<Expr> index;
  const size_t offset = i.size() - p.ndim();
  for (size_t d = 0; d < p.ndim(); ++d) {
    index.push_back(ir::IsConstInt(p.shape()[d], 1) ? Imm(0) : Expr(i[offset + d]));
  }
  return index;
}

}  // namespace

absl::StatusOr<LayerNormTensors> LayerNormCompute(const te::Tensor& x, const te::Tensor& scale,
                                                  const te::Tensor& bias, int axis,
                                                  double epsilon) {
  absl::StatusOr<std::vector<int64_t>> xs = StaticShape("layer_norm", x);
  if (!xs.ok()) return xs.status();
  const int rank = static_cast<int>(xs->size());
  if (axis < 0 || axis >= rank) {
    return absl::InvalidArgumentError(
        absl::StrCat("layer_norm: axis ", axis, " is not an axis of ", ShapeString(*xs)));
  }
  for (const te::Tensor* p : {&scale, &bias}) {
    if (!p->defined()) continue;
    absl::StatusOr<std::vector<int64_t>> ps = StaticShape("layer_norm", *p);
    if (!ps.ok()) return ps.status();
    bool fits = static_cast<int>(ps->size()) <= rank - axis;
    for (size_t d = 0; fits && d < ps->size(); ++d) {
      const int64_t want = (*xs)[rank - ps->size() + d];
      fits = (*ps)[d] == want || (*ps)[d] == 1;
    }
    if (!fits || p->dtype() != x.dtype()) {
      return absl::InvalidArgumentError(absl::StrCat("layer_norm: ", p->name(), " ",
                                                     ShapeString(*ps), " does not broadcast to ",
                                                     ShapeString(*xs), " from axis ", axis));
    }
  }
  std::vector<Expr> outer, shape;
  int64_t count = 1;
  for (int d = 0; d < rank; ++d) {
    shape.push_back(Imm((*xs)[d]));
    if (d < axis) {
      outer.push_back(Imm((*xs)[d]));
    } else {
      count *= (*xs)[d];
    }
  }
  const ir::DataType t = x.dtype();
  const Expr inverse_count = ir::MakeConst(t, 1.0 / static_cast<double>(count));
  auto reduction = [&](const char* name) {
    std::vector<ir::IterVar> k;
    for (int d = axis; d < rank; ++d) {
      k.push_back(te::reduce_axis({Imm(0), Imm((*xs)[d])}, absl::StrCat(name, d)));
    }
    return k;
  };
  auto source = [&](const std::vector<ir::Var>& i, const std::vector<ir::IterVar>& k) {
    std::vector<Expr> index(i.begin(), i.end());
    for (const ir::IterVar& iv : k) index.push_back(iv->var);
    return index;
  };
  auto outer_of = [&](const std::vector<ir::Var>& i) {
    return std::vector<Expr>(i.begin(), i.begin() + axis);
  };
  LayerNormTensors result;
  const std::vector<ir::IterVar> k1 = reduction("k");
  absl::StatusOr<te::Tensor> sum = te::compute(
      outer, [&](const std::vector<ir::Var>& i) { return te::sum(x(source(i, k1)), k1); },
      "layer_norm_sum");
  if (!sum.ok()) return sum.status();
  result.sum = *sum;
  absl::StatusOr<te::Tensor> mean = te::compute(
      outer,
      [&](const std::vector<ir::Var>& i) {
        return (*sum)(std::vector<Expr>(i.begin(), i.end())) * inverse_count;
      },
      "layer_norm_mean");
  if (!mean.ok()) return mean.status();
  result.mean = *mean;
  const std::vector<ir::IterVar> k2 = reduction("j");
  absl::StatusOr<te::Tensor> squares = te::compute(
      outer,
      [&](const std::vector<ir::Var>& i) {
        Expr centered = x(source(i, k2)) - result.mean(std::vector<Expr>(i.begin(), i.end()));
        return te::sum(centered * centered, k2);
      },
      "layer_norm_squares");
  if (!squares.ok()) return squares.status();
  result.squares = *squares;
  absl::StatusOr<te::Tensor> rstd = te::compute(
      outer,
      [&](const std::vector<ir::Var>& i) {
        Expr var = (*squares)(std::vector<Expr>(i.begin(), i.end())) * inverse_count;
        return ir::Div(ir::MakeConst(t, 1.0),
                       ir::Call(ir::Intrinsic::kSqrt, {var + ir::MakeConst(t, epsilon)}));
      },
      "layer_norm_rstd");
  if (!rstd.ok()) return rstd.status();
  result.rstd = *rstd;
  absl::StatusOr<te::Tensor> out = te::compute(
      shape,
      [&](const std::vector<ir::Var>& i) {
        Expr v = (x(std::vector<Expr>(i.begin(), i.end())) - result.mean(outer_of(i))) *
                 result.rstd(outer_of(i));
        if (scale.defined()) v = v * scale(ParameterIndex(scale, i));
        if (bias.defined()) v = v + bias(ParameterIndex(bias, i));
        return v;
      },
      "layer_norm");
  if (!out.ok()) return out.status();
  result.out = *out;
  return result;
}

}  // namespace tunefarm::topi
