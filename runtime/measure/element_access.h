// Reads and writes single elements of an NDArray as doubles, for the element types inputs are
// generated for and outputs are compared in (float32/64, signed and unsigned integers, bool).
#pragma once

#include <cstdint>
#include <cstring>
#include <dlpack/dlpack.h>

#include "runtime/ndarray.h"

namespace tunefarm::runtime::measure {

inline bool ElementTypeSupported(DLDataType t) {
  if (t.lanes != 1) return false;
  if (t.code == kDLFloat) return t.bits == 32 || t.bits == 64;
  if (t.code == kDLInt) return t.bits == 8 || t.bits == 16 || t.bits == 32 || t.bits == 64;
  if (t.code == kDLUInt) {
    return t.bits == 1 || t.bits == 8 || t.bits == 16 || t.bits == 32 || t.bits == 64;
  }
  return false;
}

namespace element_access_internal {

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

}  // namespace element_access_internal

// The array's dtype must satisfy ElementTypeSupported.
inline double LoadElement(const NDArray& a, int64_t i) {
  using element_access_internal::Load;
  const DLDataType t = a.dtype();
  const void* d = a.data();
  if (t.code == kDLFloat) return t.bits == 32 ? Load<float>(d, i) : Load<double>(d, i);
  const bool is_signed = t.code == kDLInt;
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

// Integers take `v` truncated; the array's dtype must satisfy ElementTypeSupported.
inline void StoreElement(NDArray& a, int64_t i, double v) {
  using element_access_internal::Store;
  const DLDataType t = a.dtype();
  void* d = a.data();
  if (t.code == kDLFloat) {
    if (t.bits == 32) {
      Store<float>(d, i, static_cast<float>(v));
    } else {
      Store<double>(d, i, v);
    }
    return;
  }
  const auto x = static_cast<int64_t>(v);
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

}  // namespace tunefarm::runtime::measure
