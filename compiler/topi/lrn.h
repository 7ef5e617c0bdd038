// Local response normalization across channels (AlexNet, GoogLeNet): each element divided by a
// power of the sum of squares over a window of neighbouring channels.
#pragma once

#include <cstdint>

#include "absl/status/statusor.h"
#include "compiler/te/tensor.h"

namespace tunefarm::topi {

struct LrnParams {
  int64_t size = 1;  // channels in the window: c - (size-1)/2 .. c + size/2, clipped to [0, C)
  double alpha = 1e-4, beta = 0.75, bias = 1.0;
};

struct LrnTensors {
  te::Tensor square_sum;  // sum of x^2 over each element's channel window
  te::Tensor out;         // x / (bias + alpha / size * square_sum) ^ beta
};

// x is [N, C, ...] (rank >= 2). Errors: a symbolic shape, a lower rank, size < 1.
absl::StatusOr<LrnTensors> LrnCompute(const te::Tensor& x, const LrnParams& params);

}  // namespace tunefarm::topi
