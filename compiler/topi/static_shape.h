// Static shapes of operator inputs: the constant extents an operator needs for its arithmetic,
// with errors that name the operator and the tensor when a shape is symbolic or of the wrong rank.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "compiler/te/tensor.h"

namespace tunefarm::topi {

// The extents of `t`, which must all be constants; `rank` >= 0 also requires that rank.
absl::StatusOr<std::vector<int64_t>> StaticShape(const std::string& op, const te::Tensor& t,
                                                 int rank = -1);

// "2x3x4", as shapes appear in error messages.
std::string ShapeString(const std::vector<int64_t>& shape);

// An int32 index constant (te axes are int32; a bare int64_t would make an int64 immediate and
// widen every index expression it meets).
inline ir::Expr Imm(int64_t value) { return ir::IntImm(ir::DataType::Int(32), value); }

// Ceiling division of non-negative a by positive b.
inline int64_t CeilDiv(int64_t a, int64_t b) { return (a + b - 1) / b; }

// The largest divisor of n that is at most `at_most` (1 when at_most < 1): a tile size that
// leaves no tail.
int64_t LargestDivisor(int64_t n, int64_t at_most);

}  // namespace tunefarm::topi
