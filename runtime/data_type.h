// Element types of runtime arrays: conversions between dtype strings ("float32", "int8", "bool",
// "float32x4") and DLPack's DLDataType. The runtime keeps its own copy: it must not depend on
// compiler/ (a lower layer never includes a higher one).
#pragma once

#include <cstddef>
#include <dlpack/dlpack.h>
#include <string>
#include <string_view>

#include "absl/status/statusor.h"

namespace tunefarm::runtime {

// bool is {kDLUInt, 1 bit}, stored one byte per element, as in TVM and in the IR's DataType.
inline constexpr DLDataType kDLBool = {kDLUInt, 1, 1};

// Parses "int8|16|32|64", "uint8|16|32|64", "float16|32|64", "bfloat16", "bool" and "handle",
// each with an optional "xN" lane suffix ("float32x4"). Anything else is InvalidArgument.
absl::StatusOr<DLDataType> ParseDataType(std::string_view text);

// The inverse of ParseDataType; a code or width it does not know prints as "unknown(c,b,l)".
std::string DataTypeToString(DLDataType t);

inline bool SameDataType(DLDataType a, DLDataType b) {
  return a.code == b.code && a.bits == b.bits && a.lanes == b.lanes;
}

// Bytes one element occupies in memory (bool takes a whole byte).
inline size_t DataTypeBytes(DLDataType t) {
  return (static_cast<size_t>(t.bits) * t.lanes + 7) / 8;
}

}  // namespace tunefarm::runtime
