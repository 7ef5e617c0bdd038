// Test data for running a kernel: reproducible random inputs, a poison fill that makes unwritten
// outputs visible, and an element-wise comparison of a result with a reference within tolerance.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "runtime/ndarray.h"

namespace tunefarm::driver {

// Floats uniform in [-1, 1], signed integers in [-4, 4], unsigned in [0, 8], bools 0/1; the same
// seed gives the same data on every platform. Unimplemented element types are InvalidArgument.
absl::Status FillRandom(runtime::NDArray& array, uint64_t seed);

// Every byte 0xFF: NaN for floats, -1 for signed integers.
void FillPoison(runtime::NDArray& array);

struct Comparison {
  double max_abs_err = 0.0;
  int64_t first_mismatch = -1;  // flat index, -1 when every element is within tolerance
  double got = 0.0;
  double expected = 0.0;
};

// |got - expected| <= atol + rtol * |expected| for every element; equal values (infinities
// included) and NaN against NaN agree, NaN against a number does not.
// Arrays must have the same shape and element type.
absl::StatusOr<Comparison> CompareArrays(const runtime::NDArray& got,
                                         const runtime::NDArray& expected, double rtol,
                                         double atol);

// A flat index as a multi-dimensional one: "[3, 4]".
std::string FormatIndex(int64_t flat, const std::vector<int64_t>& shape);

}  // namespace tunefarm::driver
