// Softmax over any one axis (ONNX opset 13's Softmax, a channel softmax over NCHW), in the same
// three stable passes as softmax.h; over the last axis it is softmax.h's compute itself.
#pragma once

#include "absl/status/statusor.h"
#include "compiler/te/tensor.h"
#include "compiler/topi/softmax.h"

namespace tunefarm::topi {

// `axis` in [0, rank). The max and sum stages have x's shape without `axis`. With `log`, the
// output is log(softmax(x)) as x - max - log(sum), which stays finite where softmax underflows
// (ONNX's LogSoftmax). Errors: a rank-0 or symbolic-shaped input, an axis out of range.
absl::StatusOr<SoftmaxTensors> SoftmaxAxisCompute(const te::Tensor& x, int axis, bool log = false);

struct HardmaxTensors {
  te::Tensor max;    // x's shape without `axis`
  te::Tensor first;  // the first index along `axis` that holds the max (int32)
  te::Tensor out;    // 1 there, 0 elsewhere
};

// ONNX's Hardmax over `axis` in [0, rank). Errors as SoftmaxAxisCompute's.
absl::StatusOr<HardmaxTensors> HardmaxAxisCompute(const te::Tensor& x, int axis);

}  // namespace tunefarm::topi
