#include "compiler/topi/activation.h"

#include <functional>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "compiler/ir/op.h"

namespace tunefarm::topi {
namespace {

using ir::Expr;

absl::StatusOr<te::Tensor> Unary(const te::Tensor& x, const std::string& name,
                                 const std::function<Expr(Expr)>& fn) {
  if (!x.defined()) return absl::InvalidArgumentError(absl::StrCat(name, ": undefined input"));
  return te::compute(
      x.shape(),
      [&](const std::vector<ir::Var>& i) { return fn(x(std::vector<Expr>(i.begin(), i.end()))); },
      name);
}

Expr HardSigmoid(Expr v, double alpha, double beta) {
  ir::DataType t = v.dtype();
  Expr linear = ir::MakeConst(t, alpha) * v + ir::MakeConst(t, beta);
  return ir::Max(ir::MakeZero(t), ir::Min(ir::MakeConst(t, 1.0), linear));
}

}  // namespace

absl::StatusOr<te::Tensor> ExpCompute(const te::Tensor& x) {
  return Unary(x, "exp", [](Expr v) { return ir::Call(ir::Intrinsic::kExp, {v}); });
}

absl::StatusOr<te::Tensor> HardSigmoidCompute(const te::Tensor& x, double alpha, double beta) {
  return Unary(x, "hard_sigmoid", [&](Expr v) { return HardSigmoid(v, alpha, beta); });
}

absl::StatusOr<te::Tensor> HardSwishCompute(const te::Tensor& x) {
  return Unary(x, "hard_swish", [](Expr v) { return v * HardSigmoid(v, 1.0 / 6.0, 0.5); });
}

absl::StatusOr<te::Tensor> IdentityCompute(const te::Tensor& x) {
  return Unary(x, "identity", [](Expr v) { return v; });
}

}  // namespace tunefarm::topi
