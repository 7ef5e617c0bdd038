// Computes of quantize and dequantize (topi/quantize.h) and of dense_int8 (topi/dense_int8.h, with
// its dequantizing epilogue).
#include "compiler/graph/op_compute_impl.h"
#include "compiler/ir/op.h"
#include "compiler/topi/dense_int8.h"
#include "compiler/topi/quantize.h"

namespace tunefarm::graph {
namespace {

// The normalized axis (per-tensor parameters ignore it).
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

// The int8 product, then its dequantizing epilogue: the dense_int8 template tiles them as one.
ComputeResult ComputeDenseInt8(const ComputeContext& ctx) {
  absl::StatusOr<int64_t> zero = IntAttr(ctx, "x_zero_point", 0);
  if (!zero.ok()) return zero.status();
  const te::Tensor &sum = ctx.inputs[2], &scale = ctx.inputs[3], &bias = ctx.inputs[4];
  const std::optional<int64_t> n = ir::AsConstInt(sum.shape()[0]);
  if (!n) return ctx.Error("w_sum's length must be constant");
  absl::StatusOr<topi::DenseInt8Tensors> t =
      topi::DenseInt8Compute(ctx.inputs[0], ctx.inputs[1], *n);
  if (!t.ok()) return ctx.Annotate(t.status());
  const ir::Expr zp = ir::IntImm(ir::DataType::Int(32), *zero);
  absl::StatusOr<te::Tensor> out = te::compute(
      t->c.shape(),
      [&](const std::vector<ir::Var>& i) {
        ir::Expr acc = t->c({i[0], i[1]}) - zp * sum({i[1]});
        return ir::Cast(ir::DataType::Float(32), acc) * scale({i[1]}) + bias({i[1]});
      },
      "dense_int8_dequantized");
  ComputeResult result = One(ctx, out, {t->blocked, t->c});
  if (result.ok() && ctx.options.whole_vector_rows) {
    result->anchor.kind = AnchorTemplate::kDenseInt8;
    result->anchor.dense_int8 = *t;
    result->anchor.reduced = t->c;
    result->anchor.out = *out;
  }
  return result;
}

}  // namespace tunefarm::graph
