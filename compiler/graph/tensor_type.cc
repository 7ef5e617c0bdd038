#include "compiler/graph/tensor_type.h"

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "runtime/data_type.h"

namespace tunefarm::graph {

absl::StatusOr<int64_t> CheckedNumElements(std::span<const int64_t> shape) {
  int64_t count = 1;
  for (int64_t dim : shape) {
    if (dim < 0) {
      return absl::InvalidArgumentError(
          absl::StrCat("negative dimension ", dim, " in shape ", ShapeToString(shape)));
    }
    if (dim > kMaxElements) {
      return absl::InvalidArgumentError(
          absl::StrCat("dimension ", dim, " of shape ", ShapeToString(shape), " is too large"));
    }
    // A zero dimension anywhere makes the count 0, but the other dimensions must still be sane:
    // later shape arithmetic multiplies them too.
    if (__builtin_mul_overflow(count, dim, &count) || count > kMaxElements) {
      return absl::InvalidArgumentError(
          absl::StrCat("shape ", ShapeToString(shape), " has more than 2^48 elements"));
    }
  }
  return count;
}

absl::StatusOr<int64_t> TensorType::NumElements() const { return CheckedNumElements(shape); }

absl::StatusOr<int64_t> TensorType::NumBytes() const {
  absl::StatusOr<int64_t> n = NumElements();
  if (!n.ok()) return n.status();
  return *n * static_cast<int64_t>(runtime::DataTypeBytes(dtype));
}

std::string TensorType::ToString() const {
  return runtime::DataTypeToString(dtype) + ShapeToString(shape);
}

bool operator==(const TensorType& a, const TensorType& b) {
  return runtime::SameDataType(a.dtype, b.dtype) && a.shape == b.shape;
}

std::string ShapeToString(std::span<const int64_t> shape) {
  return absl::StrCat("[", absl::StrJoin(shape, ","), "]");
}

}  // namespace tunefarm::graph
