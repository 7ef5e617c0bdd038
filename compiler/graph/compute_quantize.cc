// Computes of quantize and dequantize, from topi/quantize.h.
#include "compiler/graph/op_compute_impl.h"
#include "compiler/topi/quantize.h"

namespace tunefarm::graph {
namespace {

// The normalized axis; for per-tensor parameters (which ignore it) whatever ONNX's default gives.
absl::StatusOr<int> QuantAxis(const ComputeContext& ctx) {
  absl::StatusOr<int64_t> axis = IntAttr(ctx, "axis", 1);
  if (!axis.ok()) return axis.status();
  return NormalizedAxis(*axis, std::max(ctx.input_types[0].rank(), 1));
}

}  // namespace

ComputeResult ComputeQuantize(const ComputeContext& ctx) {
  absl::StatusOr<int> axis = QuantAxis(ctx);
  if (!axis.ok()) return axis.status();
  return One(ctx, topi::QuantizeCompute(ctx.inputs[0], ctx.inputs[1], ctx.inputs[2], *axis));
}

ComputeResult ComputeDequantize(const ComputeContext& ctx) {
  absl::StatusOr<int> axis = QuantAxis(ctx);
  if (!axis.ok()) return axis.status();
  return One(ctx, topi::DequantizeCompute(ctx.inputs[0], ctx.inputs[1], ctx.inputs[2], *axis));
}

}  // namespace tunefarm::graph
