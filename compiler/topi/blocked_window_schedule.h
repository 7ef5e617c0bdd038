// The CPU schedule shared by per-channel window reductions in the blocked layout NCHW[c]c
// (depthwise conv2d, max and average pooling): tiles of reg_w output columns x the channel block,
// every load one contiguous vector, the window accumulated in registers.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "compiler/te/tensor.h"
#include "compiler/topi/cpu_info.h"
#include "compiler/topi/scheduled_op.h"

namespace tunefarm::topi {

struct BlockedWindowScheduleConfig {
  int64_t channel_block = 16;  // layout: channels per block, whole vectors
  int64_t vector_lanes = 8;
  int64_t reg_w = 4;          // output columns per register tile (unrolled)
  bool unroll_window = true;  // unroll the window's loops
  bool pad_inline = true;     // read the input through a bounds check instead of a padded copy
  bool parallel = true;       // run the fused (n, channel block, output row) loop on the pool
  std::string ToString() const;
};

// A channel block of one vector (or `channel_block`, where the model's layout fixed it), the
// widest register tile (up to 8 columns) that fits the registers and divides the output row of
// `out_width` columns, and padding read inline, on `cpu`.
BlockedWindowScheduleConfig DefaultBlockedWindowConfig(
    int64_t out_width, const CpuInfo& cpu, std::optional<int64_t> channel_block = std::nullopt);

// One blocked window reduction: `reduced` (the window's Reduce, [N,CB,OH,OW,c]) is accumulated in
// registers at each tile of `out`, which is `reduced` itself or an elementwise epilogue of it
// (every stage between them is inlined). `args` are the op's arguments, inputs then `out`.
struct BlockedWindowStages {
  te::Tensor data, padded, reduced, out;
  std::vector<te::Tensor> args;
  int64_t channel_block = 0;  // the tensors' (data's last extent)
};

// Errors, naming `op`: a non-positive field, a channel block that is not whole vectors, or one
// that differs from the tensors' (FailedPrecondition); an epilogue that widens the output
// (FailedPrecondition).
absl::StatusOr<ScheduledOp> ScheduleBlockedWindowReduction(
    const BlockedWindowScheduleConfig& config, const BlockedWindowStages& stages,
    const std::string& op);

}  // namespace tunefarm::topi
