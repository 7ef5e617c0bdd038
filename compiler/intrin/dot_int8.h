// The int8 dot-product tensor intrinsic: C[i] += sum over k < 4 of A[k] * B[i, k] in int32, for
// i < lanes. One group of four bytes of A meets `lanes` rows of B packed [lanes, 4], the inner
// block of a dense, matmul or NCHWc convolution; it lowers to x86 VNNI's vpdpbusd (uint8 A,
// int8 B), AArch64's sdot/udot (one signedness) or widened multiply-adds elsewhere.
#pragma once

#include "absl/status/statusor.h"
#include "compiler/ir/type.h"
#include "compiler/schedule/tensor_intrin.h"

namespace tunefarm::intrin {

// `lanes` in {1, 2, 4, 8, 16, 32}; a_dtype and b_dtype each int8 or uint8.
absl::StatusOr<schedule::TensorIntrin> DotInt8Intrin(int lanes, ir::DataType a_dtype,
                                                     ir::DataType b_dtype);

}  // namespace tunefarm::intrin
