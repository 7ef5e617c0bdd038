#include "driver/element_value.h"

#include <cmath>
#include <limits>

namespace tunefarm::driver {
namespace {

// IEEE 754 binary16, exactly.
double HalfToDouble(uint16_t h) {
  const int exponent = (h >> 10) & 0x1f;
  const int fraction = h & 0x3ff;
  double v;
  if (exponent == 0) {
    v = std::ldexp(fraction, -24);  // subnormal
  } else if (exponent == 31) {
    v = fraction != 0 ? std::numeric_limits<double>::quiet_NaN()
                      : std::numeric_limits<double>::infinity();
  } else {
    v = std::ldexp(fraction + 1024, exponent - 25);
  }
  return (h & 0x8000) != 0 ? -v : v;
}

template <typename T>
double At(const void* data, int64_t i) {
  return static_cast<double>(static_cast<const T*>(data)[i]);
}

}  // namespace

bool IsNumericElementType(DLDataType t) {
  if (t.lanes != 1) return false;
  switch (t.code) {
    case kDLFloat:
      return t.bits == 16 || t.bits == 32 || t.bits == 64;
    case kDLInt:
      return t.bits == 8 || t.bits == 16 || t.bits == 32 || t.bits == 64;
    case kDLUInt:
      return t.bits == 1 || t.bits == 8 || t.bits == 16 || t.bits == 32 || t.bits == 64;
    default:
      return false;
  }
}

double ElementValue(DLDataType t, const void* data, int64_t i) {
  if (t.code == kDLFloat) {
    if (t.bits == 16) return HalfToDouble(static_cast<const uint16_t*>(data)[i]);
    return t.bits == 64 ? At<double>(data, i) : At<float>(data, i);
  }
  if (t.code == kDLInt) {
    switch (t.bits) {
      case 8:
        return At<int8_t>(data, i);
      case 16:
        return At<int16_t>(data, i);
      case 32:
        return At<int32_t>(data, i);
      default:
        return At<int64_t>(data, i);
    }
  }
  switch (t.bits) {
    case 1:
    case 8:
      return At<uint8_t>(data, i);
    case 16:
      return At<uint16_t>(data, i);
    case 32:
      return At<uint32_t>(data, i);
    default:
      return At<uint64_t>(data, i);
  }
}

}  // namespace tunefarm::driver
