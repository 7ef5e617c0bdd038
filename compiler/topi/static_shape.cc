#include "compiler/topi/static_shape.h"

#include <algorithm>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "compiler/ir/printer.h"

namespace tunefarm::topi {

absl::StatusOr<std::vector<int64_t>> StaticShape(const std::string& op, const te::Tensor& t,
                                                 int rank) {
  if (!t.defined()) return absl::InvalidArgumentError(absl::StrCat(op, ": an input is undefined"));
  if (rank >= 0 && static_cast<int>(t.ndim()) != rank) {
    return absl::InvalidArgumentError(
        absl::StrCat(op, ": ", t.name(), " has rank ", t.ndim(), ", expected rank ", rank));
  }
  std::vector<int64_t> shape;
  for (const ir::Expr& dim : t.shape()) {
    std::optional<int64_t> c = ir::AsConstInt(dim);
    if (!c) {
      return absl::InvalidArgumentError(absl::StrCat(op, ": ", t.name(), " has symbolic extent ",
                                                     ir::ToString(dim),
                                                     "; this operator needs constant shapes"));
    }
    if (*c <= 0) {
      return absl::InvalidArgumentError(
          absl::StrCat(op, ": ", t.name(), " has extent ", *c, "; extents must be positive"));
    }
    shape.push_back(*c);
  }
  return shape;
}

int64_t LargestDivisor(int64_t n, int64_t at_most) {
  for (int64_t d = std::min(n, at_most); d > 1; --d) {
    if (n % d == 0) return d;
  }
  return 1;
}

std::string ShapeString(const std::vector<int64_t>& shape) { return absl::StrJoin(shape, "x"); }

}  // namespace tunefarm::topi
