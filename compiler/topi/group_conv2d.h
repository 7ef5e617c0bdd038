// Grouped conv2d in NCHW: the input channels split into `groups` independent convolutions, each
// making O/groups output channels (ResNeXt's grouped convolutions; depthwise when groups equals
// the channel count, though depthwise_conv2d.h has the faster schedule for that case).
#pragma once

#include <cstdint>

#include "absl/status/statusor.h"
#include "compiler/te/tensor.h"
#include "compiler/topi/conv2d.h"
#include "compiler/topi/window.h"

namespace tunefarm::topi {

// out[n, o, y, x] = sum_{c < C/g, ky, kx} padded[n, (o / (O/g)) * (C/g) + c, y*sh + ky*dh,
// x*sw + kx*dw] * kernel[o, c, ky, kx], kernel [O][C/g][KH][KW]. groups == 1 is conv2d itself.
// Errors: ranks other than 4, groups that do not divide C and O, a kernel whose input channels
// are not C/groups, a window larger than the padded input.
absl::StatusOr<Conv2dTensors> GroupConv2dCompute(const te::Tensor& data, const te::Tensor& kernel,
                                                 const Window2d& window, int64_t groups);

}  // namespace tunefarm::topi
