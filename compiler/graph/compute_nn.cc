// Computes of the neural-network ops: conv2d (grouped and depthwise too), gemm, matmul,
// batch_norm, the pools, softmax and lrn, from topi.
#include "absl/strings/str_cat.h"
#include "compiler/graph/op_compute_impl.h"
#include "compiler/topi/batch_norm.h"
#include "compiler/topi/conv2d.h"
#include "compiler/topi/cumulative_sum.h"
#include "compiler/topi/depthwise_conv2d.h"
#include "compiler/topi/elementwise.h"
#include "compiler/topi/gemm_general.h"
#include "compiler/topi/group_conv2d.h"
#include "compiler/topi/layer_norm.h"
#include "compiler/topi/lrn.h"
#include "compiler/topi/matmul_broadcast.h"
#include "compiler/topi/pool.h"
#include "compiler/topi/reshape.h"
#include "compiler/topi/softmax_axis.h"

namespace tunefarm::graph {
namespace {

// The convolution without bias: topi's conv2d (groups 1), depthwise conv2d (one group per input
// channel: the weight [C*M][1][KH][KW] read as [C][M][KH][KW]) or grouped conv2d.
absl::StatusOr<te::Tensor> ConvolutionOf(const ComputeContext& ctx, const topi::Window2d& window,
                                         int64_t groups, std::vector<te::Tensor>& stages,
                                         AnchorTensors& anchor) {
  const te::Tensor& data = ctx.inputs[0];
  const te::Tensor& weight = ctx.inputs[1];
  const std::vector<int64_t>& ws = ctx.input_types[1].shape;
  const int64_t channels = ctx.input_types[0].shape[1];
  const topi::VectorRows rows = ctx.options.whole_vector_rows
                                    ? topi::VectorRowsFor(ctx.output_types[0].shape[3])
                                    : topi::VectorRows();
  if (groups == 1) {
    absl::StatusOr<topi::Conv2dTensors> t = topi::Conv2dCompute(data, weight, window, rows);
    if (!t.ok()) return t.status();
    stages.push_back(t->padded);
    if (!t->cropped.same_as(t->out)) stages.push_back(t->out);
    anchor = {AnchorTemplate::kConv2d,
              t->data,
              t->kernel,
              t->padded,
              t->out,
              t->cropped,
              window,
              {},
              {},
              {},
              {}};
    return t->cropped;
  }
  if (groups == channels) {
    te::Tensor kernel = weight;
    if (ws[0] != channels) {
      absl::StatusOr<te::Tensor> k =
          topi::ReshapeCompute(weight, {channels, ws[0] / channels, ws[2], ws[3]});
      if (!k.ok()) return k.status();
      kernel = *k;
      stages.push_back(kernel);
    }
    absl::StatusOr<topi::DepthwiseConv2dTensors> t =
        topi::DepthwiseConv2dCompute(data, kernel, window, rows);
    if (!t.ok()) return t.status();
    stages.push_back(t->padded);
    if (!t->cropped.same_as(t->out)) stages.push_back(t->out);
    // The template reads the weight as given: a reshaped one (channel multiplier > 1) is a stage.
    if (kernel.same_as(weight)) {
      anchor = {AnchorTemplate::kDepthwiseConv2d,
                t->data,
                t->kernel,
                t->padded,
                t->out,
                t->cropped,
                window,
                {},
                {},
                {},
                {}};
    }
    return t->cropped;
  }
  absl::StatusOr<topi::Conv2dTensors> t = topi::GroupConv2dCompute(data, weight, window, groups);
  if (!t.ok()) return t.status();
  stages.push_back(t->padded);
  return t->out;
}

ComputeResult Pool(const ComputeContext& ctx, topi::PoolType type, bool global) {
  topi::Pool2dParams params;
  params.type = type;
  const std::vector<int64_t>& x = ctx.input_types[0].shape;
  if (global) {
    params.kernel_h = x[2];
    params.kernel_w = x[3];
  } else {
    absl::StatusOr<std::vector<int64_t>> kernel = IntsAttr(ctx, "kernel", {});
    absl::StatusOr<int64_t> ceil_mode = IntAttr(ctx, "ceil_mode", 0);
    absl::StatusOr<int64_t> count_pad = IntAttr(ctx, "count_include_pad", 0);
    absl::StatusOr<topi::Window2d> window = ReadTopiWindow(ctx);
    for (const absl::Status& s :
         {kernel.status(), ceil_mode.status(), count_pad.status(), window.status()}) {
      if (!s.ok()) return s;
    }
    params.kernel_h = (*kernel)[0];
    params.kernel_w = (*kernel)[1];
    params.window = *window;
    params.ceil_mode = *ceil_mode != 0;
    params.count_include_pad = *count_pad != 0;
  }
  absl::StatusOr<topi::Pool2dTensors> t = topi::Pool2dCompute(ctx.inputs[0], params);
  if (!t.ok()) return ctx.Annotate(t.status());
  ComputeResult result = One(ctx, t->out, {t->padded, t->pooled});
  // A global pool's single output column leaves the template's vectors empty.
  if (result.ok() && !global) {
    const bool blocked = x.size() == 5;
    result->anchor = {blocked ? AnchorTemplate::kPool2dNchwc : AnchorTemplate::kPool2d,
                      t->data,
                      te::Tensor(),
                      t->padded,
                      t->pooled,
                      t->out,
                      params.window,
                      {},
                      {},
                      {},
                      {}};
  }
  return result;
}

}  // namespace

absl::StatusOr<topi::Window2d> ReadTopiWindow(const ComputeContext& ctx) {
  absl::StatusOr<std::vector<int64_t>> strides = IntsAttr(ctx, "strides", {1, 1});
  absl::StatusOr<std::vector<int64_t>> pads = IntsAttr(ctx, "pads", {0, 0, 0, 0});
  absl::StatusOr<std::vector<int64_t>> dilations = IntsAttr(ctx, "dilations", {1, 1});
  for (const absl::Status& s : {strides.status(), pads.status(), dilations.status()}) {
    if (!s.ok()) return s;
  }
  topi::Window2d w;
  w.stride_h = (*strides)[0];
  w.stride_w = (*strides)[1];
  w.pad_top = (*pads)[0];
  w.pad_left = (*pads)[1];
  w.pad_bottom = (*pads)[2];
  w.pad_right = (*pads)[3];
  w.dilation_h = (*dilations)[0];
  w.dilation_w = (*dilations)[1];
  return w;
}

ComputeResult ComputeConv2d(const ComputeContext& ctx) {
  absl::StatusOr<int64_t> groups = IntAttr(ctx, "groups", 1);
  if (!groups.ok()) return groups.status();
  absl::StatusOr<topi::Window2d> window = ReadTopiWindow(ctx);
  if (!window.ok()) return window.status();
  std::vector<te::Tensor> stages;
  AnchorTensors anchor;
  absl::StatusOr<te::Tensor> out = ConvolutionOf(ctx, *window, *groups, stages, anchor);
  if (out.ok() && ctx.inputs.size() == 3) {
    stages.push_back(*out);
    out = topi::BiasAddCompute(*out, ctx.inputs[2], 1);
  }
  ComputeResult result = One(ctx, out, std::move(stages));
  if (result.ok()) result->anchor = anchor;
  return result;
}

ComputeResult ComputeGemm(const ComputeContext& ctx) {
  absl::StatusOr<int64_t> trans_a = IntAttr(ctx, "trans_a", 0);
  absl::StatusOr<int64_t> trans_b = IntAttr(ctx, "trans_b", 0);
  absl::StatusOr<double> alpha = FloatAttr(ctx, "alpha", 1.0);
  absl::StatusOr<double> beta = FloatAttr(ctx, "beta", 1.0);
  for (const absl::Status& s :
       {trans_a.status(), trans_b.status(), alpha.status(), beta.status()}) {
    if (!s.ok()) return s;
  }
  absl::StatusOr<int64_t> b_block = IntAttr(ctx, "b_block", 0);
  if (!b_block.ok()) return b_block.status();
  topi::GeneralGemmParams params{*trans_a != 0, *trans_b != 0, *alpha, *beta, *b_block};
  te::Tensor c = ctx.inputs.size() == 3 ? ctx.inputs[2] : te::Tensor();
  absl::StatusOr<topi::GeneralGemmTensors> t =
      topi::GeneralGemmCompute(ctx.inputs[0], ctx.inputs[1], c, params);
  if (!t.ok()) return ctx.Annotate(t.status());
  const topi::GemmTensors& p = t->product;
  // A packed b is the kernel's input, not a stage of it.
  const te::Tensor packed_b = *b_block > 0 ? te::Tensor() : p.packed_b;
  ComputeResult result = One(ctx, t->out, {t->a_t, p.packed_a, packed_b, p.blocked, p.c});
  // The GEMM template tiles the product with C and alpha as (part of) its epilogue; a
  // transposed A would be an injective stage inside its loop nest.
  if (result.ok() && !*trans_a && ctx.options.whole_vector_rows) {
    result->anchor.kind = AnchorTemplate::kGemm;
    result->anchor.gemm = p;
    result->anchor.reduced = p.c;
    result->anchor.out = t->out;
  }
  return result;
}

ComputeResult ComputePackGemmWeight(const ComputeContext& ctx) {
  absl::StatusOr<int64_t> block = IntAttr(ctx, "block", 0);
  absl::StatusOr<int64_t> trans_b = IntAttr(ctx, "trans_b", 0);
  if (!block.ok()) return block.status();
  if (!trans_b.ok()) return trans_b.status();
  return One(ctx, topi::PackWeightCompute(
                      ctx.inputs[0], *trans_b ? topi::WeightLayout::kNK : topi::WeightLayout::kKN,
                      *block, "pack_gemm_weight"));
}

namespace {
constexpr int64_t kBatchColumnBlock = 32;
}  // namespace

ComputeResult ComputeMatMul(const ComputeContext& ctx) {
  const std::vector<int64_t>& a = ctx.input_types[0].shape;
  const std::vector<int64_t>& b = ctx.input_types[1].shape;
  const DLDataType dtype = ctx.input_types[0].dtype;
  const bool float32 = dtype.code == kDLFloat && dtype.bits == 32 && dtype.lanes == 1;
  // A stack of products with one batch axis on both sides (attention's heads) is the GEMM
  // template's batched form, tiled in registers like a dense layer; other stacks broadcast.
  if (float32 && a.size() == 3 && b.size() == 3 && a[0] == b[0] && ctx.options.whole_vector_rows) {
    // Columns that are not whole register tiles (ViT's 197 tokens) are packed in the kernel in
    // blocks of 32 (two AVX-512 vectors, four AVX2 ones), zero past N, so that no tile reads a
    // ragged row of B.
    const topi::GemmLayout layout{b[2] % kBatchColumnBlock == 0 ? 0 : kBatchColumnBlock, 0};
    absl::StatusOr<topi::GemmTensors> t =
        topi::BatchMatmulCompute(ctx.inputs[0], ctx.inputs[1], false, layout);
    if (!t.ok()) return ctx.Annotate(t.status());
    ComputeResult result = One(ctx, t->c, {t->packed_b, t->blocked});
    if (result.ok()) {
      result->anchor.kind = AnchorTemplate::kGemm;
      result->anchor.gemm = *t;
      result->anchor.reduced = t->c;
      result->anchor.out = t->c;
    }
    return result;
  }
  return One(ctx, topi::BroadcastMatmulCompute(ctx.inputs[0], ctx.inputs[1]));
}

ComputeResult ComputeBatchNorm(const ComputeContext& ctx) {
  absl::StatusOr<double> epsilon = FloatAttr(ctx, "epsilon", 1e-5);
  if (!epsilon.ok()) return epsilon.status();
  const std::vector<te::Tensor>& in = ctx.inputs;
  absl::StatusOr<topi::BatchNormTensors> t =
      topi::BatchNormInferenceCompute(in[0], in[1], in[2], in[3], in[4], *epsilon, 1);
  if (!t.ok()) return ctx.Annotate(t.status());
  return One(ctx, t->out, {t->scale, t->shift});
}

ComputeResult ComputeMaxPool2d(const ComputeContext& ctx) {
  return Pool(ctx, topi::PoolType::kMax, false);
}

ComputeResult ComputeAvgPool2d(const ComputeContext& ctx) {
  return Pool(ctx, topi::PoolType::kAvg, false);
}

ComputeResult ComputeGlobalAvgPool2d(const ComputeContext& ctx) {
  return Pool(ctx, topi::PoolType::kAvg, true);
}

ComputeResult ComputeGlobalMaxPool2d(const ComputeContext& ctx) {
  return Pool(ctx, topi::PoolType::kMax, true);
}

ComputeResult ComputeSoftmax(const ComputeContext& ctx) {
  absl::StatusOr<int64_t> axis = IntAttr(ctx, "axis", -1);
  if (!axis.ok()) return axis.status();
  const int rank = ctx.input_types[0].rank();
  const int normalized = NormalizedAxis(*axis, rank);
  absl::StatusOr<topi::SoftmaxTensors> t = topi::SoftmaxAxisCompute(ctx.inputs[0], normalized);
  if (!t.ok()) return ctx.Annotate(t.status());
  ComputeResult result = One(ctx, t->out, {t->max_part, t->max, t->exp, t->sum_part, t->sum});
  // Over the last axis the passes are rows, which the CPU template keeps in cache together.
  if (result.ok() && normalized == rank - 1 && ctx.options.whole_vector_rows) {
    result->anchor.kind = AnchorTemplate::kSoftmax;
    result->anchor.softmax = *t;
    result->anchor.reduced = t->out;
    result->anchor.out = t->out;
  }
  return result;
}

ComputeResult ComputeLogSoftmax(const ComputeContext& ctx) {
  absl::StatusOr<int64_t> axis = IntAttr(ctx, "axis", -1);
  if (!axis.ok()) return axis.status();
  absl::StatusOr<topi::SoftmaxTensors> t = topi::SoftmaxAxisCompute(
      ctx.inputs[0], NormalizedAxis(*axis, ctx.input_types[0].rank()), /*log=*/true);
  if (!t.ok()) return ctx.Annotate(t.status());
  return One(ctx, t->out, {t->max, t->exp, t->sum});
}

ComputeResult ComputeHardmax(const ComputeContext& ctx) {
  absl::StatusOr<int64_t> axis = IntAttr(ctx, "axis", -1);
  if (!axis.ok()) return axis.status();
  absl::StatusOr<topi::HardmaxTensors> t =
      topi::HardmaxAxisCompute(ctx.inputs[0], NormalizedAxis(*axis, ctx.input_types[0].rank()));
  if (!t.ok()) return ctx.Annotate(t.status());
  return One(ctx, t->out, {t->max, t->first});
}

ComputeResult ComputeCumSum(const ComputeContext& ctx) {
  absl::StatusOr<int64_t> axis = IntAttr(ctx, "axis", 0);
  absl::StatusOr<int64_t> exclusive = IntAttr(ctx, "exclusive", 0);
  absl::StatusOr<int64_t> reverse = IntAttr(ctx, "reverse", 0);
  if (!axis.ok()) return axis.status();
  if (!exclusive.ok()) return exclusive.status();
  if (!reverse.ok()) return reverse.status();
  topi::CumulativeSum how;
  how.axis = NormalizedAxis(*axis, ctx.input_types[0].rank());
  how.exclusive = *exclusive != 0;
  how.reverse = *reverse != 0;
  return One(ctx, topi::CumulativeSumCompute(ctx.inputs[0], how));
}

ComputeResult ComputeLayerNorm(const ComputeContext& ctx) {
  absl::StatusOr<int64_t> axis = IntAttr(ctx, "axis", -1);
  absl::StatusOr<double> epsilon = FloatAttr(ctx, "epsilon", 1e-5);
  if (!axis.ok()) return axis.status();
  if (!epsilon.ok()) return epsilon.status();
  const te::Tensor scale = ctx.inputs.size() > 1 ? ctx.inputs[1] : te::Tensor();
  const te::Tensor bias = ctx.inputs.size() > 2 ? ctx.inputs[2] : te::Tensor();
  absl::StatusOr<topi::LayerNormTensors> t = topi::LayerNormCompute(
      ctx.inputs[0], scale, bias, NormalizedAxis(*axis, ctx.input_types[0].rank()), *epsilon);
  if (!t.ok()) return ctx.Annotate(t.status());
  ComputeResult result = One(ctx, t->out, {t->sum, t->mean, t->squares, t->rstd});
  if (!result.ok() || ctx.output_types.size() == 1) return result;
  const int axis_index = NormalizedAxis(*axis, ctx.input_types[0].rank());
  for (const te::Tensor* stat : {&t->mean, &t->rstd}) {
    std::vector<ir::Expr> shape;
    for (int64_t d : ctx.output_types[1].shape)
      shape.push_back(ir::IntImm(ir::DataType::Int(32), d));
    absl::StatusOr<te::Tensor> kept = te::compute(
        shape,
        [&](const std::vector<ir::Var>& i) {
          return (*stat)(std::vector<ir::Expr>(i.begin(), i.begin() + axis_index));
        },
        stat == &t->mean ? "layer_norm_mean_out" : "layer_norm_rstd_out");
    if (!kept.ok()) return ctx.Annotate(kept.status());
    result->outputs.push_back(*kept);
  }
  return result;
}

ComputeResult ComputeLrn(const ComputeContext& ctx) {
  topi::LrnParams params;
  absl::StatusOr<int64_t> size = IntAttr(ctx, "size", 0);
  absl::StatusOr<double> alpha = FloatAttr(ctx, "alpha", 1e-4);
  absl::StatusOr<double> beta = FloatAttr(ctx, "beta", 0.75);
  absl::StatusOr<double> bias = FloatAttr(ctx, "bias", 1.0);
  for (const absl::Status& s : {size.status(), alpha.status(), beta.status(), bias.status()}) {
    if (!s.ok()) return s;
  }
  params.size = *size;
  params.alpha = *alpha;
  params.beta = *beta;
  params.bias = *bias;
  absl::StatusOr<topi::LrnTensors> t = topi::LrnCompute(ctx.inputs[0], params);
  if (!t.ok()) return ctx.Annotate(t.status());
  return One(ctx, t->out, {t->square_sum});
}

}  // namespace tunefarm::graph
