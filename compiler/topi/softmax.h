// Softmax over the last axis in three stable passes (row max, sum of exp(x - max), divide) and
// its CPU schedule: rows in parallel, each row's passes together while it is in cache.
#pragma once

#include <cstdint>
#include <string>

#include "absl/status/statusor.h"
#include "compiler/te/tensor.h"
#include "compiler/topi/cpu_info.h"
#include "compiler/topi/scheduled_op.h"

namespace tunefarm::topi {

// The row reductions are in two steps, so that a row's elements reduce a vector at a time: the
// partials [rows..., kSoftmaxLanes] reduce elements l, l + lanes, l + 2 lanes ... (a ragged
// row's missing elements count as -inf and 0), then each row's partials reduce to one value.
struct SoftmaxTensors {
  te::Tensor x;
  te::Tensor max_part;  // [rows..., lanes]: partial maxima
  te::Tensor max;       // [rows...]: the row max
  te::Tensor exp;       // exp(x - max)
  te::Tensor sum_part;  // [rows..., lanes]: partial sums of exp
  te::Tensor sum;       // [rows...]: the row sum of exp
  te::Tensor out;
};

// One AVX-512 vector of float32, two AVX2 or NEON ones: fixed, so that the computation (and its
// summation order) does not depend on the machine that builds it.
inline constexpr int64_t kSoftmaxLanes = 16;

// Errors: a rank-0 or symbolic-shaped input.
absl::StatusOr<SoftmaxTensors> SoftmaxCompute(const te::Tensor& x);

struct SoftmaxScheduleConfig {
  int64_t vector_lanes = 8;
  bool store_exp = true;  // keep exp(x - max) in a row buffer (else recompute it in the divide)
  bool parallel = true;   // run the fused row loop on the thread pool
  std::string ToString() const;
};

SoftmaxScheduleConfig DefaultSoftmaxConfig(const SoftmaxTensors& t, const CpuInfo& cpu);

absl::StatusOr<ScheduledOp> ScheduleSoftmax(const SoftmaxScheduleConfig& config,
                                            const SoftmaxTensors& t);

}  // namespace tunefarm::topi
