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

struct SoftmaxTensors {
  te::Tensor x;
  te::Tensor max;  // [rows...]: the row max
  te::Tensor exp;  // exp(x - max)
  te::Tensor sum;  // [rows...]: the row sum of exp
  te::Tensor out;
};

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
