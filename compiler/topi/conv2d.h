// Direct conv2d in NCHW (stride, padding, dilation) and its CPU schedule template: register
// tiles of reg_o output channels (unrolled) x reg_w output columns (vectors).
#pragma once

#include <cstdint>
#include <string>

#include "absl/status/statusor.h"
#include "compiler/te/tensor.h"
#include "compiler/topi/cpu_info.h"
#include "compiler/topi/scheduled_op.h"
#include "compiler/topi/vector_rows.h"
#include "compiler/topi/window.h"

namespace tunefarm::topi {

struct Conv2dTensors {
  te::Tensor data;
  te::Tensor kernel;
  // `data` itself when the window has no padding; split into column phases with
  // VectorRows::split_strided_columns and a column stride > 1 (vector_rows.h).
  te::Tensor padded;
  te::Tensor out;
  // `out` cut back to the convolution's true width when Conv2dCompute rounded its width up; else
  // `out` itself. What readers of the convolution read.
  te::Tensor cropped;
};

// Errors: ranks other than 4, channel counts that disagree, a window larger than the padded
// input (InvalidArgument naming conv2d and both shapes). `rows`: vector_rows.h (`out` is then
// computed over the rounded width, `cropped` is the true width).
absl::StatusOr<Conv2dTensors> Conv2dCompute(const te::Tensor& data, const te::Tensor& kernel,
                                            const Window2d& window, const VectorRows& rows = {});

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
