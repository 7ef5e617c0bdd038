#include "driver/array_check.h"

#include <cmath>
#include <cstring>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "runtime/data_type.h"
#include "runtime/measure/element_access.h"
#include "runtime/measure/random_fill.h"

namespace tunefarm::driver {
namespace {

absl::Status Unsupported(DLDataType t) {
  return absl::InvalidArgumentError(
      absl::StrCat("arrays of ", runtime::DataTypeToString(t), " are not supported here"));
}

}  // namespace

absl::Status FillRandom(runtime::NDArray& array, uint64_t seed) {
  if (!runtime::measure::ElementTypeSupported(array.dtype())) return Unsupported(array.dtype());
  runtime::measure::FillSeededRandom(array, seed);
  return absl::OkStatus();
}

void FillPoison(runtime::NDArray& array) { std::memset(array.data(), 0xFF, array.NumBytes()); }

absl::StatusOr<Comparison> CompareArrays(const runtime::NDArray& got,
                                         const runtime::NDArray& expected, double rtol,
                                         double atol) {
  if (!runtime::SameDataType(got.dtype(), expected.dtype()) || got.shape() != expected.shape()) {
    return absl::InvalidArgumentError("compared arrays differ in shape or element type");
  }
  if (!runtime::measure::ElementTypeSupported(got.dtype())) return Unsupported(got.dtype());
  Comparison result;
  for (int64_t i = 0; i < got.NumElements(); ++i) {
    double a = runtime::measure::LoadElement(got, i);
    double b = runtime::measure::LoadElement(expected, i);
    // Equal infinities, and NaN where the reference has NaN too, agree (numpy's allclose).
    bool same = a == b || (std::isnan(a) && std::isnan(b));
    double err = same ? 0.0 : std::fabs(a - b);
    bool finite = std::isfinite(a) && std::isfinite(b);
    bool ok = same || (finite && err <= atol + rtol * std::fabs(b));
    if (!std::isnan(err)) result.max_abs_err = std::max(result.max_abs_err, err);
    if (!ok && result.first_mismatch < 0) {
      result.first_mismatch = i;
      result.got = a;
      result.expected = b;
    }
  }
  return result;
}

std::string FormatIndex(int64_t flat, const std::vector<int64_t>& shape) {
  std::vector<int64_t> index(shape.size());
  for (size_t d = shape.size(); d-- > 0;) {
    int64_t extent = std::max<int64_t>(shape[d], 1);
    index[d] = flat % extent;
    flat /= extent;
  }
  return absl::StrCat("[", absl::StrJoin(index, ", "), "]");
}

}  // namespace tunefarm::driver
