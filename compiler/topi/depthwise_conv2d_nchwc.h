// Depthwise conv2d blocked over channels (data NCHW[c]c, kernel [C/c][KH][KW][c]) and its CPU
// schedule: tiles of reg_w columns x the channel block, every load one contiguous vector.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "compiler/te/tensor.h"
#include "compiler/topi/blocked_window_schedule.h"
#include "compiler/topi/cpu_info.h"
#include "compiler/topi/scheduled_op.h"
#include "compiler/topi/window.h"

namespace tunefarm::topi {

struct DepthwiseConv2dNchwcTensors {
  te::Tensor data;
  te::Tensor kernel;
  te::Tensor padded;  // `data` itself when the window has no padding
  te::Tensor out;
  int64_t channel_block = 0;
};

// out[n, b, y, x, c] = sum_{ky,kx} padded[n, b, y*sh + ky*dh, x*sw + kx*dw, c] * kernel[b, ky, kx,
// c] (multiplier 1). Errors: ranks other than 5 and 4, channel blocks that disagree, a window
// larger than the padded input (InvalidArgument naming depthwise_conv2d_nchwc and the shapes).
absl::StatusOr<DepthwiseConv2dNchwcTensors> DepthwiseConv2dNchwcCompute(const te::Tensor& data,
                                                                        const te::Tensor& kernel,
                                                                        const Window2d& window);

// The blocked window schedule's config (blocked_window_schedule.h).
using DepthwiseConv2dNchwcScheduleConfig = BlockedWindowScheduleConfig;

// DefaultBlockedWindowConfig for the output width of NCHW `data_shape` under the window.
DepthwiseConv2dNchwcScheduleConfig DefaultDepthwiseConv2dNchwcConfig(
    const std::vector<int64_t>& data_shape, int64_t kh, int64_t kw, const Window2d& window,
    const CpuInfo& cpu, std::optional<int64_t> channel_block = std::nullopt);

// `output`, when given, is an epilogue over `t.out` as in ScheduleConv2dNchwc. Errors: a
// non-positive field, a channel block that is not whole vectors, or one that differs from the
// tensors' (FailedPrecondition); an epilogue that widens the output (FailedPrecondition).
absl::StatusOr<ScheduledOp> ScheduleDepthwiseConv2dNchwc(
    const DepthwiseConv2dNchwcScheduleConfig& config, const DepthwiseConv2dNchwcTensors& t,
    const te::Tensor& output = te::Tensor());

}  // namespace tunefarm::topi
