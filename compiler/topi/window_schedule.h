// The CPU schedule shared by per-channel sliding-window reductions (depthwise conv2d, pooling):
// rows of output tiles of whole vectors, each accumulated in a local tile over the window.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "compiler/te/tensor.h"
#include "compiler/topi/cpu_info.h"
#include "compiler/topi/scheduled_op.h"

namespace tunefarm::topi {

struct WindowScheduleConfig {
  int64_t vector_lanes = 8;
  int64_t reg_w_vectors = 1;  // output columns per tile, in vectors
  bool unroll_window = true;  // unroll the window's loops
  bool pad_inline = false;    // read the input through a bounds check instead of a padded copy
  bool parallel = true;       // run the fused (n, channel, output row) loop on the thread pool
  std::string ToString() const;
};

// Vectors per tile: as many as divide an output row of `out` (NCHW), up to `max_vectors`, since a
// ragged tile's scalar tail costs more than the window's few operations per output.
WindowScheduleConfig DefaultWindowConfig(const te::Tensor& out, const CpuInfo& cpu,
                                         int64_t max_vectors);

// The tensors of one window reduction: `reduced` (the window's Reduce, NCHW) is accumulated in a
// local tile at each output tile of `out`, which is `reduced` itself or an elementwise epilogue of
// it (epilogue.h: every stage between them is inlined). `args` are the op's arguments, inputs then
// output. `op` names the op in errors.
struct WindowStages {
  te::Tensor data, padded, reduced, out;
  std::vector<te::Tensor> args;
};

absl::StatusOr<ScheduledOp> ScheduleWindowReduction(const WindowScheduleConfig& config,
                                                    const WindowStages& stages,
                                                    const std::string& op);

}  // namespace tunefarm::topi
