#include "compiler/topi/transpose.h"

#include <string>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"

namespace tunefarm::topi {

absl::StatusOr<te::Tensor> TransposeCompute(const te::Tensor& x, const std::vector<int64_t>& perm) {
  const size_t rank = x.ndim();
  std::vector<bool> seen(rank, false);
  bool valid = perm.size() == rank;
  for (size_t d = 0; valid && d < rank; ++d) {
    valid = perm[d] >= 0 && static_cast<size_t>(perm[d]) < rank && !seen[perm[d]];
    if (valid) seen[perm[d]] = true;
  }
  if (!valid) {
    return absl::InvalidArgumentError(absl::StrCat("transpose: perm [", absl::StrJoin(perm, ","),
                                                   "] is not a permutation of the ", rank,
                                                   " axes of ", x.name()));
  }
  std::vector<ir::Expr> shape(rank);
  for (size_t d = 0; d < rank; ++d) shape[d] = x.shape()[perm[d]];
  return te::compute(
      shape,
      [&](const std::vector<ir::Var>& i) {
        std::vector<ir::Expr> index(rank);
        for (size_t d = 0; d < rank; ++d) index[perm[d]] = i[d];
        return x(index);
      },
      "transpose");
}

}  // namespace tunefarm::topi
