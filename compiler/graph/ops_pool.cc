// Type inference of the 2-D pools: windowed (max, average) and global.
#include "absl/strings/str_cat.h"
#include "compiler/graph/op_inference.h"

namespace tunefarm::graph {
namespace {

// Over NCHW, or the blocked NCHW[c]c the layout rewrite gives a pool after a blocked conv.
// `bytes`: int8 and uint8 data too (ONNX MaxPool's; a max needs no wider type).
InferResult WindowPool(const InferContext& ctx, bool bytes) {
  absl::Status s = ExpectInputCount(ctx, 1, 1);
  if (s.ok() && ctx.inputs[0].shape.size() != 5) s = ExpectRank(ctx, 0, 4, "data");
  const DLDataType t = ctx.inputs.empty() ? DLDataType{} : ctx.inputs[0].dtype;
  const bool byte = (t.code == kDLInt || t.code == kDLUInt) && t.bits == 8 && t.lanes == 1;
  if (s.ok() && !(bytes && byte)) s = ExpectFloat(ctx, 0);
  if (!s.ok()) return s;
  absl::StatusOr<Window2d> window = ReadWindow2d(ctx, nullptr);
  if (!window.ok()) return window.status();
  for (int d = 0; d < 2; ++d) {
    // A window that covers only padding would have nothing to take the max or mean of.
    if (window->pads[d] >= window->kernel[d] || window->pads[d + 2] >= window->kernel[d]) {
      return ctx.Error("pads must be smaller than the kernel");
    }
  }
  const std::vector<int64_t>& x = ctx.inputs[0].shape;
  absl::StatusOr<std::vector<int64_t>> hw = WindowOutputSize(ctx, *window, x[2], x[3]);
  if (!hw.ok()) return hw.status();
  std::vector<int64_t> out = {x[0], x[1], (*hw)[0], (*hw)[1]};
  if (x.size() == 5) out.push_back(x[4]);
  return OneOutput(ctx, ctx.inputs[0].dtype, std::move(out));
}

// NCHW, or NCHW[c]c when the layout rewrite pools a blocked value: [N,C,1,1] or [N,CB,1,1,c].
InferResult GlobalPool(const InferContext& ctx) {
  absl::Status s = ExpectInputCount(ctx, 1, 1);
  if (s.ok() && ctx.inputs[0].shape.size() != 5) s = ExpectRank(ctx, 0, 4, "data");
  if (s.ok()) s = ExpectFloat(ctx, 0);
  if (!s.ok()) return s;
  std::vector<int64_t> out = ctx.inputs[0].shape;
  out[2] = out[3] = 1;
  return OneOutput(ctx, ctx.inputs[0].dtype, std::move(out));
}

}  // namespace

InferResult InferMaxPool2d(const InferContext& ctx) { return WindowPool(ctx, true); }

InferResult InferAvgPool2d(const InferContext& ctx) {
  absl::StatusOr<int64_t> count_pad = ctx.node.attrs.Int("count_include_pad", 0);
  if (!count_pad.ok()) return ctx.Annotate(count_pad.status());
  if (ctx.node.attrs.Has("dilations")) return ctx.Error("avg_pool2d takes no dilations");
  return WindowPool(ctx, false);
}

InferResult InferGlobalAvgPool2d(const InferContext& ctx) { return GlobalPool(ctx); }
InferResult InferGlobalMaxPool2d(const InferContext& ctx) { return GlobalPool(ctx); }

}  // namespace tunefarm::graph
