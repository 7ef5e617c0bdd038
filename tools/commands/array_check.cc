#include "tools/commands/array_check.h"

#include <cmath>
#include <cstring>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "runtime/data_type.h"

namespace tunefarm::tools {
namespace {

// splitmix64: tiny, fast and fully specified, so data does not depend on the standard library.
uint64_t NextRandom(uint64_t& state) {
  uint64_t z = (state += 0x9e3779b97f4a7c15ULL);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

bool Supported(DLDataType t) {
  if (t.lanes != 1) return false;
  if (t.code == kDLFloat) return t.bits == 32 || t.bits == 64;
  if (t.code == kDLInt) return t.bits == 8 || t.bits == 16 || t.bits == 32 || t.bits == 64;
  if (t.code == kDLUInt)
    return t.bits == 1 || t.bits == 8 || t.bits == 16 || t.bits == 32 || t.bits == 64;
  return false;
}

template <typename T>
T Load(const void* data, int64_t i) {
  T v;
  std::memcpy(&v, static_cast<const char*>(data) + i * sizeof(T), sizeof(T));
  return v;
}

template <typename T>
void Store(void* data, int64_t i, T v) {
  std::memcpy(static_cast<char*>(data) + i * sizeof(T), &v, sizeof(T));
}

double ElementAt(const runtime::NDArray& a, int64_t i) {
  DLDataType t = a.dtype();
  const void* d = a.data();
  if (t.code == kDLFloat) return t.bits == 32 ? Load<float>(d, i) : Load<double>(d, i);
  bool is_signed = t.code == kDLInt;
  switch (t.bits) {
    case 1:
    case 8:
      return is_signed ? Load<int8_t>(d, i) : Load<uint8_t>(d, i);
    case 16:
      return is_signed ? Load<int16_t>(d, i) : Load<uint16_t>(d, i);
    case 32:
      return is_signed ? Load<int32_t>(d, i) : Load<uint32_t>(d, i);
    default:
      return is_signed ? static_cast<double>(Load<int64_t>(d, i))
                       : static_cast<double>(Load<uint64_t>(d, i));
  }
}

void SetElement(runtime::NDArray& a, int64_t i, double v) {
  DLDataType t = a.dtype();
  void* d = a.data();
  if (t.code == kDLFloat) {
    t.bits == 32 ? Store<float>(d, i, static_cast<float>(v)) : Store<double>(d, i, v);
    return;
  }
  auto x = static_cast<int64_t>(v);
  switch (t.bits) {
    case 1:
    case 8:
      Store<int8_t>(d, i, static_cast<int8_t>(x));
      break;
    case 16:
      Store<int16_t>(d, i, static_cast<int16_t>(x));
      break;
    case 32:
      Store<int32_t>(d, i, static_cast<int32_t>(x));
      break;
    default:
      Store<int64_t>(d, i, x);
      break;
  }
}

absl::Status Unsupported(DLDataType t) {
  return absl::InvalidArgumentError(
      absl::StrCat("arrays of ", runtime::DataTypeToString(t), " are not supported here"));
}

}  // namespace

absl::Status FillRandom(runtime::NDArray& array, uint64_t seed) {
  DLDataType t = array.dtype();
  if (!Supported(t)) return Unsupported(t);
  uint64_t state = seed;
  for (int64_t i = 0; i < array.NumElements(); ++i) {
    uint64_t r = NextRandom(state);
    double v = 0;
    if (t.code == kDLFloat) {
      v = static_cast<double>(r >> 11) * 0x1.0p-53 * 2.0 - 1.0;
    } else if (t.bits == 1) {
      v = static_cast<double>(r & 1);
    } else {
      v = static_cast<double>(r % 9) - (t.code == kDLInt ? 4.0 : 0.0);
    }
    SetElement(array, i, v);
  }
  return absl::OkStatus();
}

void FillPoison(runtime::NDArray& array) { std::memset(array.data(), 0xFF, array.NumBytes()); }

absl::StatusOr<Comparison> CompareArrays(const runtime::NDArray& got,
                                         const runtime::NDArray& expected, double rtol,
                                         double atol) {
  if (!runtime::SameDataType(got.dtype(), expected.dtype()) || got.shape() != expected.shape()) {
    return absl::InvalidArgumentError("compared arrays differ in shape or element type");
  }
  if (!Supported(got.dtype())) return Unsupported(got.dtype());
  Comparison result;
  for (int64_t i = 0; i < got.NumElements(); ++i) {
    double a = ElementAt(got, i);
    double b = ElementAt(expected, i);
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

}  // namespace tunefarm::tools
