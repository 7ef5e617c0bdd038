// 2-D max and average pooling in NCHW or the blocked NCHW[c]c (stride, padding, dilation,
// count_include_pad) and their CPU schedule templates: output columns in vectors reduced over an
// unrolled window (NCHW), or tiles of columns x the channel block (blocked_window_schedule.h).
#pragma once

#include <cstdint>
#include <string>

#include "absl/status/statusor.h"
#include "compiler/te/tensor.h"
#include "compiler/topi/blocked_window_schedule.h"
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
// window's size, or by how many of its taps fall inside the input. Data of rank 5 is blocked,
// [N,CB,H,W,c], and so is the output. Errors: a rank other than 4 or 5,
// a window larger than the padded input (naming pool2d and the shapes).
absl::StatusOr<Pool2dTensors> Pool2dCompute(const te::Tensor& data, const Pool2dParams& params);

// The window-reduction schedule (window_schedule.h).
using Pool2dScheduleConfig = WindowScheduleConfig;

Pool2dScheduleConfig DefaultPool2dConfig(const Pool2dTensors& t, const CpuInfo& cpu);

// With `output`, an elementwise epilogue of t.out computed in each output tile (epilogue.h); the
// args then end with `output`. For NCHW data.
absl::StatusOr<ScheduledOp> SchedulePool2d(const Pool2dScheduleConfig& config,
                                           const Pool2dTensors& t,
                                           const te::Tensor& output = te::Tensor());

// The same for blocked data [N,CB,H,W,c] (config.channel_block = c; DefaultBlockedWindowConfig
// of the output width gives the default): the window's max or sum accumulated in registers, each
// load a vector of the channel block.
absl::StatusOr<ScheduledOp> SchedulePool2dNchwc(const BlockedWindowScheduleConfig& config,
                                                const Pool2dTensors& t,
                                                const te::Tensor& output = te::Tensor());

}  // namespace tunefarm::topi
