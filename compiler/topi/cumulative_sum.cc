#include "compiler/topi/cumulative_sum.h"

#include <vector>

#include "absl/strings/str_cat.h"
#include "compiler/ir/op.h"
#include "compiler/topi/static_shape.h"

namespace tunefarm::topi {

absl::StatusOr<te::Tensor> CumulativeSumCompute(const te::Tensor& x, const CumulativeSum& how) {
  absl::StatusOr<std::vector<int64_t>> xs = StaticShape("cumsum", x);
  if (!xs.ok()) return xs.status();
  const int rank = static_cast<int>(xs->size());
  if (how.axis < 0 || how.axis >= rank) {
    return absl::InvalidArgumentError(
        absl::StrCat("cumsum: axis ", how.axis, " is not an axis of ", ShapeString(*xs)));
  }
  std::vector<ir::Expr> shape;
  for (int64_t d : *xs) shape.push_back(Imm(d));
  ir::IterVar k = te::reduce_axis({Imm(0), Imm((*xs)[how.axis])}, "k");
  return te::compute(
      shape,
      [&](const std::vector<ir::Var>& i) {
        std::vector<ir::Expr> at_k(i.begin(), i.end());
        at_k[how.axis] = k->var;
        const ir::Expr here = i[how.axis];
        const ir::Expr kept =
            how.reverse ? (how.exclusive ? ir::Expr(k->var) > here : ir::Expr(k->var) >= here)
                        : (how.exclusive ? ir::Expr(k->var) < here : ir::Expr(k->var) <= here);
        return te::sum(x(at_k), {k}, kept);
      },
      "cumsum");
}

}  // namespace tunefarm::topi
