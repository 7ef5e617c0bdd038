// Linear quantization as ONNX defines it (QuantizeLinear, DequantizeLinear), per tensor or per
// axis: the ops of a QDQ model, and the reference its int8 rewrites are checked against.
#pragma once

#include "absl/status/statusor.h"
#include "compiler/te/tensor.h"

namespace tunefarm::topi {

// y = saturate(round_half_to_even(x / scale) + zero_point), in zero_point's dtype (int8 or
// uint8). scale (float32) and zero_point have one element (rank 0 or [1]) or, per axis, one per
// index of x's dimension `axis` (already normalized to [0, rank)).
absl::StatusOr<te::Tensor> QuantizeCompute(const te::Tensor& x, const te::Tensor& scale,
                                           const te::Tensor& zero_point, int axis);

// y = (x - zero_point) * scale in float32, for int8, uint8 or int32 x (zero_point of x's dtype).
absl::StatusOr<te::Tensor> DequantizeCompute(const te::Tensor& x, const te::Tensor& scale,
                                             const te::Tensor& zero_point, int axis);

}  // namespace tunefarm::topi
