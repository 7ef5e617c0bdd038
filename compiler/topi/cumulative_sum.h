// The running sum along one axis (ONNX's CumSum), inclusive or exclusive, forward or reversed.
#pragma once

#include "absl/status/statusor.h"
#include "compiler/te/tensor.h"

namespace tunefarm::topi {

struct CumulativeSum {
  int axis = 0;            // in [0, rank)
  bool exclusive = false;  // each position leaves out its own element
  bool reverse = false;    // sums run from the end of the axis back
};

// y[..., i, ...] = the sum of x[..., k, ...] over the k up to i (from i on, reversed). Written as
// a masked sum over the axis, so it costs n^2 / 2 adds for an axis of n; the axes models run it
// over (positions of a sequence, a mask's length) are a few hundred long. Errors: a symbolic
// shape, an axis out of range.
absl::StatusOr<te::Tensor> CumulativeSumCompute(const te::Tensor& x, const CumulativeSum& how);

}  // namespace tunefarm::topi
