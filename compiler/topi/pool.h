// 2-D max and average pooling in NCHW (stride, padding, dilation, count_include_pad) and its CPU
// schedule template: output columns in vectors reduced over an unrolled window.
#pragma once

#include <cstdint>
#include <string>

#include "absl/status/statusor.h"
#include "compiler/te/tensor.h"
#include "compiler/topi/cpu_info.h"
#include "compiler/topi/scheduled_op.h"
#include "compiler/topi/window.h"
#include "compiler/topi/window_schedule.h"

namespace tunefarm::topi {

enum class PoolType : uint8_t { kMax, kAvg };

struct Pool2dParams {
  PoolType type = PoolType::kMax;
  int64_t kernel_h = 2, kernel_w = 2;
  Window2d window;                 // stride, padding and dilation of the pooling window
  bool count_include_pad = false;  // average: divide by kernel_h * kernel_w even at borders
  // Output extents rounded up: a last, partial window is kept when it starts inside the input or
  // its begin padding (it reads the padding value past the end padding; an average with
  // count_include_pad divides by its taps inside the padded input).
  bool ceil_mode = false;
};

struct Pool2dTensors {
  te::Tensor data;
  te::Tensor padded;  // `data` itself when the window has no padding
  te::Tensor pooled;  // the max or sum over each window
  te::Tensor out;     // `pooled` for max; pooled / count for average
};

// Max pads with the lowest float, so padding never wins; average pads with 0 and divides by the
// window's size, or by how many of its taps fall inside the input. Errors: a rank other than 4,
// a window larger than the padded input (naming pool2d and the shapes).
absl::StatusOr<Pool2dTensors> Pool2dCompute(const te::Tensor& data, const Pool2dParams& params);

// The window-reduction schedule (window_schedule.h).
using Pool2dScheduleConfig = WindowScheduleConfig;

Pool2dScheduleConfig DefaultPool2dConfig(const Pool2dTensors& t, const CpuInfo& cpu);

// With `output`, an elementwise epilogue of t.out computed in each output tile (epilogue.h); the
// args then end with `output`.
absl::StatusOr<ScheduledOp> SchedulePool2d(const Pool2dScheduleConfig& config,
                                           const Pool2dTensors& t,
                                           const te::Tensor& output = te::Tensor());

}  // namespace tunefarm::topi
