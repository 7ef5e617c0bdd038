// Depthwise conv2d in NCHW with a channel multiplier, and its CPU schedule template: output
// columns in vectors accumulated over an unrolled window, rows in parallel.
#pragma once

#include <cstdint>
#include <string>

#include "absl/status/statusor.h"
#include "compiler/te/tensor.h"
#include "compiler/topi/cpu_info.h"
#include "compiler/topi/scheduled_op.h"
#include "compiler/topi/vector_rows.h"
#include "compiler/topi/window.h"
#include "compiler/topi/window_schedule.h"

namespace tunefarm::topi {

struct DepthwiseConv2dTensors {
  te::Tensor data;
  te::Tensor kernel;
  te::Tensor padded;  // `data` itself when the window has no padding; see vector_rows.h
  te::Tensor out;
  te::Tensor cropped;  // `out` at its true width (`out` itself unless `rows` rounded it up)
};

// out[n, c*M + q, y, x] = sum_{ky,kx} padded[n, c, y*sh + ky*dh, x*sw + kx*dw] * kernel[c, q, ky,
// kx]. Errors: ranks other than 4, kernel channels other than the data's, a window larger than
// the padded input. `rows`: vector_rows.h.
absl::StatusOr<DepthwiseConv2dTensors> DepthwiseConv2dCompute(const te::Tensor& data,
                                                              const te::Tensor& kernel,
                                                              const Window2d& window,
                                                              const VectorRows& rows = {});

// The window-reduction schedule (window_schedule.h): tiles of reg_w_vectors x vector_lanes
// output columns, the kernel window unrolled.
using DepthwiseConv2dScheduleConfig = WindowScheduleConfig;

DepthwiseConv2dScheduleConfig DefaultDepthwiseConv2dConfig(const DepthwiseConv2dTensors& t,
                                                           const CpuInfo& cpu);

// With `output`, an elementwise epilogue of t.out computed in each output tile (epilogue.h); the
// args then end with `output`.
absl::StatusOr<ScheduledOp> ScheduleDepthwiseConv2d(const DepthwiseConv2dScheduleConfig& config,
                                                    const DepthwiseConv2dTensors& t,
                                                    const te::Tensor& output = te::Tensor());

}  // namespace tunefarm::topi
