// Computes of gather, expand, tile and resize, from topi's repeat.h and resize.h.
#include "compiler/graph/op_compute_impl.h"
#include "compiler/graph/resize_attributes.h"
#include "compiler/topi/repeat.h"
#include "compiler/topi/resize.h"

namespace tunefarm::graph {

ComputeResult ComputeGather(const ComputeContext& ctx) {
  absl::StatusOr<int64_t> axis = IntAttr(ctx, "axis", 0);
  if (!axis.ok()) return axis.status();
  return One(ctx, topi::GatherCompute(ctx.inputs[0], ctx.inputs[1],
                                      NormalizedAxis(*axis, ctx.input_types[0].rank())));
}

ComputeResult ComputeGatherElements(const ComputeContext& ctx) {
  absl::StatusOr<int64_t> axis = IntAttr(ctx, "axis", 0);
  if (!axis.ok()) return axis.status();
  return One(ctx, topi::GatherElementsCompute(ctx.inputs[0], ctx.inputs[1],
                                              NormalizedAxis(*axis, ctx.input_types[0].rank())));
}

ComputeResult ComputeExpand(const ComputeContext& ctx) {
  return One(ctx, topi::ExpandCompute(ctx.inputs[0], ctx.output_types[0].shape));
}

ComputeResult ComputeTile(const ComputeContext& ctx) {
  absl::StatusOr<std::vector<int64_t>> repeats = IntsAttr(ctx, "repeats", {});
  if (!repeats.ok()) return repeats.status();
  return One(ctx, topi::TileCompute(ctx.inputs[0], *repeats));
}

ComputeResult ComputeResize(const ComputeContext& ctx) {
  absl::StatusOr<ResizeAttributes> r = ReadResize(ctx.node.attrs);
  if (!r.ok()) return ctx.Annotate(r.status());
  return One(ctx, topi::ResizeCompute(ctx.inputs[0], r->params));
}

}  // namespace tunefarm::graph
