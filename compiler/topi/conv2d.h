// Direct conv2d in NCHW (stride, padding, dilation) and its CPU schedule template: register
// tiles of reg_o output channels (unrolled) x reg_w output columns (vectors).
#pragma once

#include <cstdint>
#include <string>

#include "absl/status/statusor.h"
#include "compiler/te/tensor.h"
#include "compiler/topi/cpu_info.h"
#include "compiler/topi/scheduled_op.h"
#include "compiler/topi/window.h"

namespace tunefarm::topi {

struct Conv2dTensors {
  te::Tensor data;
  te::Tensor kernel;
  // `data` itself when the window has no padding; with Conv2dRows::split_strided_columns and a
  // column stride s > 1, the padded input as [N][C][H][s][W/s] (column w at [w % s][w / s]).
  te::Tensor padded;
  te::Tensor out;
  // `out` cut back to the convolution's true width when Conv2dCompute rounded its width up; else
  // `out` itself. What readers of the convolution read.
  te::Tensor cropped;
};

// How a conv's output rows are laid out for vector code.
struct Conv2dRows {
  // `out` is computed over the output width rounded up to a multiple of this (the input padded on
  // the right to match), so that rows of 7 or 14 columns still fill whole vectors; `cropped`
  // holds the true width, and a schedule with it (or an epilogue of it) as the output stores only
  // those columns.
  int64_t width_multiple = 1;
  // With a column stride s > 1, the padded copy splits the columns into s phases, so that a
  // vector of output columns reads consecutive inputs instead of every s-th one.
  bool split_strided_columns = false;
};

// Errors: ranks other than 4, channel counts that disagree, a window larger than the padded
// input (InvalidArgument naming conv2d and both shapes).
absl::StatusOr<Conv2dTensors> Conv2dCompute(const te::Tensor& data, const te::Tensor& kernel,
                                            const Window2d& window, const Conv2dRows& rows = {});

// The rows model builds and the conv2d tuning template alike compute a conv in, so that records
// tuned for a workload schedule what a model runs: widths rounded up to 16 (one AVX-512 vector,
// two AVX2/NEON ones; 8 for rows narrower than 16, none for multiples of 16), since a few wasted
// columns cost far less than a ragged row's scalar code, and strided columns split.
Conv2dRows Conv2dVectorRows(int64_t out_width);

// The order of the reduction loops around a register tile.
enum class ConvReduceOrder : uint8_t {
  kChannelFirst,  // c, kh, kw: one input channel's window at a time
  kWindowFirst,   // kh, kw, c
};

struct Conv2dScheduleConfig {
  int64_t vector_lanes = 8;
  int64_t reg_w_vectors = 1;  // output columns per register tile, in vectors (vectorized)
  int64_t reg_o = 4;          // output channels per register tile (unrolled)
  ConvReduceOrder order = ConvReduceOrder::kChannelFirst;
  bool unroll_kw = true;    // unroll the kernel-width loop
  bool pad_inline = false;  // read the input through a bounds check instead of a padded copy
  bool parallel = true;     // run the fused (n, o block, output row) loop on the thread pool
  std::string ToString() const;
};

// Register tiles that fit `cpu`'s vector registers, dividing OW and O where possible.
Conv2dScheduleConfig DefaultConv2dConfig(const Conv2dTensors& t, const CpuInfo& cpu);

// Errors: a non-positive config field, named. With `output` (a fused kernel: an elementwise
// epilogue of t.out, epilogue.h), the register tiles are `output`'s and the epilogue is applied to
// each accumulator tile before it is stored; the args are then t.data, t.kernel and `output`, and
// the caller lists any other inputs the epilogue reads.
absl::StatusOr<ScheduledOp> ScheduleConv2d(const Conv2dScheduleConfig& config,
                                           const Conv2dTensors& t,
                                           const te::Tensor& output = te::Tensor());

}  // namespace tunefarm::topi
