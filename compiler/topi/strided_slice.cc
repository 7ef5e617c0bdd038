#include "compiler/topi/strided_slice.h"

#include <string>

#include "absl/strings/str_cat.h"
#include "compiler/ir/op.h"
#include "compiler/topi/static_shape.h"

namespace tunefarm::topi {

absl::StatusOr<te::Tensor> StridedSliceCompute(const te::Tensor& x,
                                               const std::vector<int64_t>& begin,
                                               const std::vector<int64_t>& step,
                                               const std::vector<int64_t>& count) {
  absl::StatusOr<std::vector<int64_t>> xs = StaticShape("strided_slice", x);
  if (!xs.ok()) return xs.status();
  const size_t rank = xs->size();
  if (begin.size() != rank || step.size() != rank || count.size() != rank) {
    return absl::InvalidArgumentError(absl::StrCat("strided_slice: begin, step and count need ",
                                                   rank, " entries for ", ShapeString(*xs)));
  }
  for (size_t d = 0; d < rank; ++d) {
    const int64_t last = begin[d] + (count[d] - 1) * step[d];
    const bool inside =
        count[d] == 0 || (begin[d] >= 0 && begin[d] < (*xs)[d] && last >= 0 && last < (*xs)[d]);
    if (step[d] == 0 || count[d] < 0 || !inside) {
      return absl::InvalidArgumentError(
          absl::StrCat("strided_slice: axis ", d, " of ", ShapeString(*xs), ": begin ", begin[d],
                       ", step ", step[d], ", count ", count[d], " reads outside the tensor"));
    }
  }
  std::vector<ir::Expr> shape;
  for (int64_t c : count) shape.push_back(Imm(c));
  return te::compute(
      shape,
      [&](const std::vector<ir::Var>& i) {
        std::vector<ir::Expr> index;
        for (size_t d = 0; d < rank; ++d) {
          ir::Expr e = step[d] == 1 ? ir::Expr(i[d]) : i[d] * Imm(step[d]);
          index.push_back(begin[d] == 0 ? e : Imm(begin[d]) + e);
        }
        return x(index);
      },
      "strided_slice");
}

}  // namespace tunefarm::topi
