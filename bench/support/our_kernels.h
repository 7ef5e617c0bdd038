// Our side of the operator benchmark: a topi operator with its default CPU schedule, lowered,
// compiled for the host by the LLVM JIT, with inputs allocated and filled so only the call is
// timed.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>

#include "absl/status/statusor.h"
#include "bench/support/vendor_kernels.h"
#include "compiler/topi/cpu_info.h"
#include "compiler/topi/scheduled_op.h"

namespace tunefarm::bench {

struct OurKernel {
  std::string config;                 // the schedule config, for the table's footnotes
  std::function<absl::Status()> run;  // one call through the runtime's checked packed call
  std::shared_ptr<void> state;
};

// Any scheduled op (a tuned config's, for instance), compiled the same way; `name` names the
// kernel and `config` is echoed in the table's footnotes.
absl::StatusOr<OurKernel> OurScheduled(const topi::ScheduledOp& op, const std::string& name,
                                       std::string config);

// C[m, n] = A[m, k] * B[k, n] with the matmul default schedule (weight packing included in the
// timed kernel, as OpenBLAS packs inside sgemm).
absl::StatusOr<OurKernel> OurMatmul(int64_t m, int64_t n, int64_t k, const topi::CpuInfo& cpu);

// Y[m, n] = sum_k A[m, k] * W[n, k] in int8 (uint8 A, int8 W packed ahead as the dense_int8
// template reads it, int32 Y) with its default schedule: the dot intrinsic of the host.
absl::StatusOr<OurKernel> OurDenseInt8(int64_t m, int64_t n, int64_t k, const topi::CpuInfo& cpu);

// The int8 blocked conv2d (uint8 data NCHW[16c], int8 kernel packed ahead, int32 output
// NCHW[Lc]) with its default schedule: the dot intrinsic of the host.
absl::StatusOr<OurKernel> OurConv2dInt8(const ConvShape& shape, const topi::CpuInfo& cpu);

// A conv2d in the blocked NCHWc layout, data and weights already in that layout (oneDNN's timed
// call also starts from its preferred layouts); a depthwise conv (groups == channels) uses the
// NCHW depthwise schedule.
absl::StatusOr<OurKernel> OurConv2d(const ConvShape& shape, const topi::CpuInfo& cpu);

}  // namespace tunefarm::bench
