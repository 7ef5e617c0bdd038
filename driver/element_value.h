// One element of a numeric array as a double, whatever its element type: how outputs of any type
// are compared with expected files (floats within a tolerance, integers then exactly).
#pragma once

#include <cstdint>
#include <dlpack/dlpack.h>

namespace tunefarm::driver {

// Whether ElementValue reads this type: float16/32/64, signed and unsigned 8-64-bit integers,
// bool (uint1 stored in bytes).
bool IsNumericElementType(DLDataType t);

// Element `i` of `data` of type `t` (IsNumericElementType(t)); int64 past 2^53 rounds.
double ElementValue(DLDataType t, const void* data, int64_t i);

}  // namespace tunefarm::driver
