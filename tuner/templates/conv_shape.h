// The shape of a conv workload ("N,C,H,W,O,KH,KW,stride,pad" or, depthwise, "N,C,H,W,KH,KW,
// stride,pad"), parsed and checked once for the conv templates.
#pragma once

#include <cstdint>
#include <optional>

#include "absl/status/statusor.h"
#include "compiler/topi/conv2d.h"
#include "compiler/topi/conv2d_nchwc.h"
#include "compiler/topi/depthwise_conv2d.h"
#include "compiler/topi/window.h"
#include "tuner/task_template.h"
#include "tuner/workload.h"

namespace tunefarm::tuner::templates {

struct ConvShape {
  int64_t n = 1, c = 1, h = 1, w = 1, o = 1, kh = 1, kw = 1, stride = 1, pad = 0;
  int64_t oh = 1, ow = 1;  // derived
  bool depthwise = false;  // o == c, one filter per channel

  topi::Window2d window() const { return topi::Window2d::Make(stride, pad); }
  // The NCHW computes over float32 placeholders "data" [N][C][H][W] and "kernel" ([O][C][KH][KW],
  // depthwise [C][1][KH][KW]), as the CPU and GPU templates of each op declare them.
  absl::StatusOr<topi::Conv2dTensors> Conv2d() const;
  // Conv2d with rows in whole vectors (topi::VectorRowsFor), as model builds compute it:
  // what the CPU conv2d template tunes, its output `cropped`.
  absl::StatusOr<topi::Conv2dTensors> Conv2dInWholeVectors() const;
  absl::StatusOr<topi::DepthwiseConv2dTensors> DepthwiseConv2d() const;
  // DepthwiseConv2d in whole-vector rows, as model builds compute it (its output `cropped`).
  absl::StatusOr<topi::DepthwiseConv2dTensors> DepthwiseConv2dInWholeVectors() const;
  // 2 * N * O * OH * OW * (C per group) * KH * KW: a multiply-add is two operations.
  double Flops() const;
};

// The args in `info.args_help` order (depthwise when there are 8, without O). Errors
// (InvalidArgument, naming the key): CheckWorkloadArgs's (only pad may be 0), a window larger
// than the padded input, or a tensor too large for 32-bit indices.
absl::StatusOr<ConvShape> ParseConvShape(const Workload& workload, const TemplateInfo& info,
                                         const std::string& dtype = "float32");

// A blocked conv template's workload: the shape's arguments and, where a model's layout fixed
// the channel blocks, those after them (conv2d_nchwc "...,pad,ic_block,oc_block", depthwise
// "...,pad,channel_block"), so that a model's task is tuned in the layout its build gives it.
struct BlockedConvShape {
  ConvShape shape;
  std::optional<topi::NchwcBlocks> blocks;  // depthwise: both the channel block
};

// The largest channel block a workload may fix: far above any vector register's lanes.
inline constexpr int64_t kMaxChannelBlock = 256;

// ParseConvShape's errors, and a block outside 1..kMaxChannelBlock.
absl::StatusOr<BlockedConvShape> ParseBlockedConvShape(const Workload& workload,
                                                       const TemplateInfo& info,
                                                       const std::string& dtype = "float32");

}  // namespace tunefarm::tuner::templates
