// Computes of the blocked-layout ops: the NCHW <-> NCHW[c]c transforms and the blocked
// convolutions (topi's conv2d_nchwc, grouped too, and depthwise_conv2d_nchwc), whose bias [blocks,
// block] is added after the reduction, where a fused kernel's epilogue starts.
#include "compiler/graph/op_compute_impl.h"
#include "compiler/ir/op.h"
#include "compiler/topi/conv2d_nchwc.h"
#include "compiler/topi/conv2d_winograd.h"
#include "compiler/topi/depthwise_conv2d_nchwc.h"
#include "compiler/topi/layout_transform.h"

namespace tunefarm::graph {
namespace {

// out[n, b, y, x, c] + bias[b, c].
absl::StatusOr<te::Tensor> BlockedBiasAdd(const te::Tensor& out, const te::Tensor& bias) {
  return te::compute(
      out.shape(),
      [&](const std::vector<ir::Var>& i) {
        return out(std::vector<ir::Expr>(i.begin(), i.end())) + bias({i[1], i[4]});
      },
      "bias_add");
}

// The convolution's result with its bias, and the tensors its template schedules.
ComputeResult BlockedConvolution(const ComputeContext& ctx, AnchorTemplate kind,
                                 const te::Tensor& data, const te::Tensor& kernel,
                                 const te::Tensor& padded, const te::Tensor& reduced,
                                 const topi::Window2d& window) {
  std::vector<te::Tensor> stages = {padded};
  absl::StatusOr<te::Tensor> out = reduced;
  if (ctx.inputs.size() == 3) {
    stages.push_back(reduced);
    out = BlockedBiasAdd(reduced, ctx.inputs[2]);
  }
  ComputeResult result = One(ctx, out, std::move(stages));
  if (result.ok())
    result->anchor = {kind, data, kernel, padded, reduced, reduced, window, {}, {}, {}, {}};
  return result;
}

}  // namespace

ComputeResult ComputeToNchwc(const ComputeContext& ctx) {
  absl::StatusOr<int64_t> block = IntAttr(ctx, "block", 0);
  if (!block.ok()) return block.status();
  return One(ctx, topi::NchwToNchwcCompute(ctx.inputs[0], *block));
}

ComputeResult ComputeFromNchwc(const ComputeContext& ctx) {
  absl::StatusOr<int64_t> channels = IntAttr(ctx, "channels", 0);
  if (!channels.ok()) return channels.status();
  return One(ctx, topi::NchwcToNchwCompute(ctx.inputs[0], *channels));
}

ComputeResult ComputeConv2dNchwc(const ComputeContext& ctx) {
  absl::StatusOr<topi::Window2d> window = ReadTopiWindow(ctx);
  if (!window.ok()) return window.status();
  absl::StatusOr<topi::Conv2dNchwcTensors> t =
      topi::Conv2dNchwcCompute(ctx.inputs[0], ctx.inputs[1], *window);
  if (!t.ok()) return ctx.Annotate(t.status());
  return BlockedConvolution(ctx, AnchorTemplate::kConv2dNchwc, t->data, t->kernel, t->padded,
                            t->out, *window);
}

ComputeResult ComputeGroupConv2dNchwc(const ComputeContext& ctx) {
  absl::StatusOr<topi::Window2d> window = ReadTopiWindow(ctx);
  if (!window.ok()) return window.status();
  absl::StatusOr<int64_t> per_group = IntAttr(ctx, "out_blocks_per_group", 0);
  if (!per_group.ok()) return per_group.status();
  absl::StatusOr<topi::Conv2dNchwcTensors> t =
      topi::GroupConv2dNchwcCompute(ctx.inputs[0], ctx.inputs[1], *window, *per_group);
  if (!t.ok()) return ctx.Annotate(t.status());
  // The dense template's schedule: the two differ only in which data block a step reads.
  return BlockedConvolution(ctx, AnchorTemplate::kConv2dNchwc, t->data, t->kernel, t->padded,
                            t->out, *window);
}

ComputeResult ComputeWinogradWeight(const ComputeContext& ctx) {
  absl::StatusOr<int64_t> tile = IntAttr(ctx, "tile", 0);
  if (!tile.ok()) return tile.status();
  absl::StatusOr<topi::WinogradMatrices> w = topi::MakeWinogradMatrices(static_cast<int>(*tile), 3);
  if (!w.ok()) return ctx.Annotate(w.status());
  return One(ctx, topi::WinogradWeightCompute(ctx.inputs[0], *w));
}

ComputeResult ComputeConv2dWinogradNchwc(const ComputeContext& ctx) {
  absl::StatusOr<int64_t> tile = IntAttr(ctx, "tile", 0);
  if (!tile.ok()) return tile.status();
  absl::StatusOr<topi::Window2d> window = ReadTopiWindow(ctx);
  if (!window.ok()) return window.status();
  absl::StatusOr<topi::WinogradMatrices> w = topi::MakeWinogradMatrices(static_cast<int>(*tile), 3);
  if (!w.ok()) return ctx.Annotate(w.status());
  absl::StatusOr<topi::Conv2dWinogradTensors> t =
      topi::Conv2dWinogradCompute(ctx.inputs[0], ctx.inputs[1], window->pad_top, *w);
  if (!t.ok()) return ctx.Annotate(t.status());
  ComputeResult result = BlockedConvolution(ctx, AnchorTemplate::kConv2dWinogradNchwc, t->data,
                                            t->weight, t->data, t->out, *window);
  if (result.ok()) {
    result->winograd = {t->rows, t->tiles, t->product, t->m};
    result->stages.push_back(t->rows);
    result->stages.push_back(t->tiles);
    result->stages.push_back(t->product);
  }
  return result;
}

ComputeResult ComputeDepthwiseConv2dNchwc(const ComputeContext& ctx) {
  absl::StatusOr<topi::Window2d> window = ReadTopiWindow(ctx);
  if (!window.ok()) return window.status();
  absl::StatusOr<topi::DepthwiseConv2dNchwcTensors> t =
      topi::DepthwiseConv2dNchwcCompute(ctx.inputs[0], ctx.inputs[1], *window);
  if (!t.ok()) return ctx.Annotate(t.status());
  return BlockedConvolution(ctx, AnchorTemplate::kDepthwiseConv2dNchwc, t->data, t->kernel,
                            t->padded, t->out, *window);
}

}  // namespace tunefarm::graph
