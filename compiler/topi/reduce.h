// Reductions over any set of axes (ONNX's Reduce* ops): sum, mean, max, min, product, the L1 and
// L2 norms, sum of squares, log-sum and a stable log-sum-exp, keeping the reduced axes as 1s or
// dropping them.
#pragma once

#include <optional>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "compiler/te/tensor.h"

namespace tunefarm::topi {

enum class ReduceFn : uint8_t {
  kSum,
  kMean,
  kMax,
  kMin,
  kProd,
  kL1,
  kL2,
  kSumSquare,
  kLogSum,
  kLogSumExp,
};

// "sum", "mean", "max", "min", "prod", "l1", "l2", "sum_square", "log_sum", "log_sum_exp".
std::string_view ReduceFnName(ReduceFn fn);
std::optional<ReduceFn> ReduceFnFromName(std::string_view name);
// sum, max, min, prod, l1 and sum_square also reduce integers; the rest need floats.
bool ReduceFnTakesIntegers(ReduceFn fn);

struct ReduceTensors {
  te::Tensor out;
  // The stages before the output: the reduction itself where the output finishes it (mean's
  // division, l2's square root), and log_sum_exp's max.
  std::vector<te::Tensor> stages;
};

// `axes`: distinct axes of x in [0, rank), any order; empty reduces nothing (a copy). With
// `keep_dims` the reduced axes stay as extent 1. Errors: a symbolic shape, an axis out of range
// or repeated, a float function of integers.
absl::StatusOr<ReduceTensors> ReduceCompute(const te::Tensor& x, ReduceFn fn,
                                            const std::vector<int>& axes, bool keep_dims);

}  // namespace tunefarm::topi
