// Type inference of the blocked-layout ops the layout rewrite makes: the NCHW <-> NCHW[c]c
// transforms and the blocked convolutions, Winograd's (winograd_rewrite.h) included.
#include "absl/strings/str_cat.h"
#include "compiler/graph/op_inference.h"

namespace tunefarm::graph {
namespace {

// The output of a blocked convolution over data [N,CB,H,W,c] with a kh x kw window: [N, blocks,
// OH, OW, block].
InferResult BlockedWindowOutput(const InferContext& ctx, int64_t kh, int64_t kw, int64_t blocks,
                                int64_t block) {
  const std::vector<int64_t>& x = ctx.inputs[0].shape;
  const int64_t kernel[2] = {kh, kw};
  absl::StatusOr<Window2d> window = ReadWindow2d(ctx, kernel);
  if (!window.ok()) return window.status();
  absl::StatusOr<std::vector<int64_t>> hw = WindowOutputSize(ctx, *window, x[2], x[3]);
  if (!hw.ok()) return hw.status();
  return OneOutput(ctx, ctx.inputs[0].dtype, {x[0], blocks, (*hw)[0], (*hw)[1], block});
}

// An optional attribute naming how many of `blocks` x `block` channels are real (the rest are
// zero padding): at least 1 and at most all of them.
absl::Status CheckRealChannels(const InferContext& ctx, const char* attr, int64_t blocks,
                               int64_t block) {
  absl::StatusOr<int64_t> real = ctx.node.attrs.Int(attr, blocks * block);
  if (!real.ok()) return ctx.Annotate(real.status());
  if (*real < 1 || *real > blocks * block) {
    return ctx.Error(absl::StrCat(attr, " ", *real, " must be 1 to ", blocks * block));
  }
  return absl::OkStatus();
}

absl::Status CheckBias(const InferContext& ctx, int64_t blocks, int64_t block) {
  if (ctx.inputs.size() == 3 && ctx.inputs[2].shape != std::vector<int64_t>{blocks, block}) {
    return ctx.Error(absl::StrCat("bias ", ctx.inputs[2].ToString(), " must have shape [", blocks,
                                  ",", block, "]"));
  }
  return absl::OkStatus();
}

}  // namespace

InferResult InferToNchwc(const InferContext& ctx) {
  absl::Status s = ExpectInputCount(ctx, 1, 1);
  if (s.ok()) s = ExpectRank(ctx, 0, 4, "data");
  if (!s.ok()) return s;
  absl::StatusOr<int64_t> block = ctx.node.attrs.Int("block", 0);
  if (!block.ok()) return ctx.Annotate(block.status());
  if (*block < 1) return ctx.Error(absl::StrCat("block ", *block, " must be at least 1"));
  const std::vector<int64_t>& x = ctx.inputs[0].shape;
  return OneOutput(ctx, ctx.inputs[0].dtype,
                   {x[0], (x[1] + *block - 1) / *block, x[2], x[3], *block});
}

InferResult InferFromNchwc(const InferContext& ctx) {
  absl::Status s = ExpectInputCount(ctx, 1, 1);
  if (s.ok()) s = ExpectRank(ctx, 0, 5, "data");
  if (!s.ok()) return s;
  const std::vector<int64_t>& x = ctx.inputs[0].shape;
  absl::StatusOr<int64_t> channels = ctx.node.attrs.Int("channels", 0);
  if (!channels.ok()) return ctx.Annotate(channels.status());
  if (*channels < 1 || *channels > x[1] * x[4]) {
    return ctx.Error(absl::StrCat("channels ", *channels, " must be 1 to ", x[1] * x[4],
                                  " (the blocks of ", ctx.inputs[0].ToString(), ")"));
  }
  return OneOutput(ctx, ctx.inputs[0].dtype, {x[0], *channels, x[2], x[3]});
}

namespace {

// Data [N][CB][H][W][c] and a weight of `weight_rank` of one float dtype, and an optional bias.
absl::Status ExpectBlockedConvInputs(const InferContext& ctx, int weight_rank) {
  absl::Status s = ExpectInputCount(ctx, 2, 3);
  if (s.ok()) s = ExpectSameDtype(ctx);
  if (s.ok()) s = ExpectFloat(ctx, 0);
  if (s.ok()) s = ExpectRank(ctx, 0, 5, "data");
  if (s.ok()) s = ExpectRank(ctx, 1, weight_rank, "weight");
  return s;
}

}  // namespace

InferResult InferConv2dNchwc(const InferContext& ctx) {
  if (absl::Status s = ExpectBlockedConvInputs(ctx, 6); !s.ok()) return s;
  const std::vector<int64_t>& x = ctx.inputs[0].shape;
  const std::vector<int64_t>& w = ctx.inputs[1].shape;
  if (w[1] != x[1] || w[4] != x[4]) {
    return ctx.Error(absl::StrCat("weight ", ctx.inputs[1].ToString(), " must read ", x[1],
                                  " blocks of ", x[4], " input channels, as data ",
                                  ctx.inputs[0].ToString(), " holds"));
  }
  if (absl::Status b = CheckBias(ctx, w[0], w[5]); !b.ok()) return b;
  if (absl::Status c = CheckRealChannels(ctx, "in_channels", x[1], x[4]); !c.ok()) return c;
  if (absl::Status c = CheckRealChannels(ctx, "channels", w[0], w[5]); !c.ok()) return c;
  return BlockedWindowOutput(ctx, w[2], w[3], w[0], w[5]);
}

InferResult InferGroupConv2dNchwc(const InferContext& ctx) {
  if (absl::Status s = ExpectBlockedConvInputs(ctx, 6); !s.ok()) return s;
  const std::vector<int64_t>& x = ctx.inputs[0].shape;
  const std::vector<int64_t>& w = ctx.inputs[1].shape;
  absl::StatusOr<int64_t> per_group = ctx.node.attrs.Int("out_blocks_per_group", 0);
  if (!per_group.ok()) return ctx.Annotate(per_group.status());
  if (w[4] != x[4] || w[5] != x[4]) {
    return ctx.Error(absl::StrCat("weight ", ctx.inputs[1].ToString(), " must have blocks of ",
                                  x[4], " input and output channels, as data ",
                                  ctx.inputs[0].ToString(), " has"));
  }
  if (*per_group < 1 || w[0] % *per_group != 0 || w[0] / *per_group * w[1] != x[1]) {
    return ctx.Error(absl::StrCat("out_blocks_per_group ", *per_group, " must split the ", w[0],
                                  " output blocks into groups that each read ", w[1], " of the ",
                                  x[1], " data blocks"));
  }
  if (absl::Status b = CheckBias(ctx, w[0], w[5]); !b.ok()) return b;
  if (absl::Status c = CheckRealChannels(ctx, "in_channels", x[1], x[4]); !c.ok()) return c;
  if (absl::Status c = CheckRealChannels(ctx, "channels", w[0], w[5]); !c.ok()) return c;
  return BlockedWindowOutput(ctx, w[2], w[3], w[0], w[5]);
}

InferResult InferDepthwiseConv2dNchwc(const InferContext& ctx) {
  if (absl::Status s = ExpectBlockedConvInputs(ctx, 4); !s.ok()) return s;
  const std::vector<int64_t>& x = ctx.inputs[0].shape;
  const std::vector<int64_t>& w = ctx.inputs[1].shape;
  if (w[0] != x[1] || w[3] != x[4]) {
    return ctx.Error(absl::StrCat("weight ", ctx.inputs[1].ToString(), " must hold ", x[1],
                                  " blocks of ", x[4], " channels, as data ",
                                  ctx.inputs[0].ToString(), " does"));
  }
  if (absl::Status b = CheckBias(ctx, x[1], x[4]); !b.ok()) return b;
  if (absl::Status c = CheckRealChannels(ctx, "channels", x[1], x[4]); !c.ok()) return c;
  return BlockedWindowOutput(ctx, w[1], w[2], x[1], x[4]);
}

namespace {

// A winograd tile side the transforms support (F(m x m, 3x3), m + 2 points at most 8).
absl::StatusOr<int64_t> WinogradTile(const InferContext& ctx) {
  absl::StatusOr<int64_t> tile = ctx.node.attrs.Int("tile", 0);
  if (!tile.ok()) return ctx.Annotate(tile.status());
  if (*tile < 2 || *tile > 6) {
    return ctx.Error(absl::StrCat("tile ", *tile, " must be 2 to 6 (F(m x m, 3x3))"));
  }
  return *tile;
}

}  // namespace

InferResult InferWinogradWeight(const InferContext& ctx) {
  absl::Status s = ExpectInputCount(ctx, 1, 1);
  if (s.ok()) s = ExpectFloat(ctx, 0);
  if (s.ok()) s = ExpectRank(ctx, 0, 6, "weight");
  if (!s.ok()) return s;
  absl::StatusOr<int64_t> tile = WinogradTile(ctx);
  if (!tile.ok()) return tile.status();
  const std::vector<int64_t>& w = ctx.inputs[0].shape;
  if (w[2] != 3 || w[3] != 3) {
    return ctx.Error(absl::StrCat("weight ", ctx.inputs[0].ToString(),
                                  " must be a blocked 3x3 kernel [OB][CB][3][3][ic][oc]"));
  }
  const int64_t alpha = *tile + 2;
  return OneOutput(ctx, ctx.inputs[0].dtype, {alpha, alpha, w[0], w[1], w[4], w[5]});
}

InferResult InferConv2dWinogradNchwc(const InferContext& ctx) {
  if (absl::Status s = ExpectBlockedConvInputs(ctx, 6); !s.ok()) return s;
  absl::StatusOr<int64_t> tile = WinogradTile(ctx);
  if (!tile.ok()) return tile.status();
  const std::vector<int64_t>& x = ctx.inputs[0].shape;
  const std::vector<int64_t>& w = ctx.inputs[1].shape;
  if (w[0] != *tile + 2 || w[1] != *tile + 2 || w[3] != x[1] || w[4] != x[4]) {
    return ctx.Error(absl::StrCat("weight ", ctx.inputs[1].ToString(), " must be [", *tile + 2,
                                  "][", *tile + 2, "][OB][", x[1], "][", x[4],
                                  "][oc] (winograd_weight of tile ", *tile, " for data ",
                                  ctx.inputs[0].ToString(), ")"));
  }
  if (absl::Status b = CheckBias(ctx, w[2], w[5]); !b.ok()) return b;
  if (absl::Status c = CheckRealChannels(ctx, "in_channels", x[1], x[4]); !c.ok()) return c;
  if (absl::Status c = CheckRealChannels(ctx, "channels", w[2], w[5]); !c.ok()) return c;
  const int64_t kernel[2] = {3, 3};
  absl::StatusOr<Window2d> window = ReadWindow2d(ctx, kernel);
  if (!window.ok()) return window.status();
  const Window2d& win = *window;
  const bool one_pad = win.pads[0] == win.pads[1] && win.pads[0] == win.pads[2] &&
                       win.pads[0] == win.pads[3] && (win.pads[0] == 0 || win.pads[0] == 1);
  if (!one_pad || win.strides[0] != 1 || win.strides[1] != 1 || win.dilations[0] != 1 ||
      win.dilations[1] != 1) {
    return ctx.Error("winograd needs stride 1, dilation 1 and one padding of 0 or 1");
  }
  return BlockedWindowOutput(ctx, 3, 3, w[2], w[5]);
}

}  // namespace tunefarm::graph
