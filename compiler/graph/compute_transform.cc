// Computes of the ops that move elements: flatten, reshape, squeeze and unsqueeze (reshapes),
// transpose, concat, pad, slice and split, from topi.
#include <algorithm>
#include <numeric>

#include "compiler/graph/op_compute_impl.h"
#include "compiler/ir/op.h"
#include "compiler/topi/activation.h"
#include "compiler/topi/concat.h"
#include "compiler/topi/pad.h"
#include "compiler/topi/reshape.h"
#include "compiler/topi/strided_slice.h"
#include "compiler/topi/transpose.h"

namespace tunefarm::graph {
namespace {

// Every reshape-like op: the elements in order under the inferred output shape.
ComputeResult Reshape(const ComputeContext& ctx) {
  return One(ctx, topi::ReshapeCompute(ctx.inputs[0], ctx.output_types[0].shape));
}

struct SliceAxis {
  int64_t begin = 0, step = 1, count = 0;
};

// ONNX Slice's clamping of one axis of extent `dim` (as inference counts it).
SliceAxis ResolveSlice(int64_t dim, int64_t start, int64_t end, int64_t step) {
  SliceAxis a{0, step, 0};
  if (dim == 0) return a;
  if (start < 0) start += dim;
  if (end < 0) end += dim;
  if (step > 0) {
    start = std::clamp<int64_t>(start, 0, dim);
    end = std::clamp<int64_t>(end, 0, dim);
    a.count = end > start ? (end - start - 1) / step + 1 : 0;
  } else {
    start = std::clamp<int64_t>(start, 0, dim - 1);
    end = std::clamp<int64_t>(end, -1, dim - 1);
    a.count = start > end ? (start - end - 1) / -step + 1 : 0;
  }
  if (a.count > 0) a.begin = start;
  return a;
}

}  // namespace

ComputeResult ComputeFlatten(const ComputeContext& ctx) { return Reshape(ctx); }
ComputeResult ComputeReshape(const ComputeContext& ctx) { return Reshape(ctx); }
ComputeResult ComputeSqueeze(const ComputeContext& ctx) { return Reshape(ctx); }
ComputeResult ComputeUnsqueeze(const ComputeContext& ctx) { return Reshape(ctx); }

ComputeResult ComputeTranspose(const ComputeContext& ctx) {
  std::vector<int64_t> reversed(ctx.input_types[0].rank());
  std::iota(reversed.rbegin(), reversed.rend(), 0);
  absl::StatusOr<std::vector<int64_t>> perm = IntsAttr(ctx, "perm", reversed);
  if (!perm.ok()) return perm.status();
  return One(ctx, topi::TransposeCompute(ctx.inputs[0], *perm));
}

ComputeResult ComputeConcat(const ComputeContext& ctx) {
  absl::StatusOr<int64_t> axis = IntAttr(ctx, "axis", 0);
  if (!axis.ok()) return axis.status();
  return One(ctx,
             topi::ConcatCompute(ctx.inputs, NormalizedAxis(*axis, ctx.input_types[0].rank())));
}

ComputeResult ComputePad(const ComputeContext& ctx) {
  absl::StatusOr<std::vector<int64_t>> pads = IntsAttr(ctx, "pads", {});
  absl::StatusOr<double> value = FloatAttr(ctx, "value", 0.0);
  if (!pads.ok()) return pads.status();
  if (!value.ok()) return value.status();
  const std::vector<int64_t>& shape = ctx.input_types[0].shape;
  const size_t rank = shape.size();
  // Negative pads crop first (a slice); the positive ones then pad what is left.
  std::vector<int64_t> begin(rank), step(rank, 1), count(rank), before(rank), after(rank);
  bool crops = false;
  for (size_t d = 0; d < rank; ++d) {
    int64_t lo = (*pads)[d], hi = (*pads)[d + rank];
    begin[d] = std::max<int64_t>(0, -lo);
    count[d] = shape[d] - begin[d] - std::max<int64_t>(0, -hi);
    before[d] = std::max<int64_t>(0, lo);
    after[d] = std::max<int64_t>(0, hi);
    crops = crops || lo < 0 || hi < 0;
  }
  te::Tensor x = ctx.inputs[0];
  std::vector<te::Tensor> stages;
  if (crops) {
    absl::StatusOr<te::Tensor> cropped = topi::StridedSliceCompute(x, begin, step, count);
    if (!cropped.ok()) return ctx.Annotate(cropped.status());
    x = *cropped;
    stages.push_back(x);
  }
  absl::StatusOr<te::Tensor> padded =
      topi::PadCompute(x, before, after, ir::MakeConst(x.dtype(), *value), "pad");
  // Nothing to pad or crop: still a stage of its own, so the op has an output to write.
  if (padded.ok() && padded->same_as(ctx.inputs[0])) padded = topi::IdentityCompute(*padded);
  return One(ctx, padded, std::move(stages));
}

ComputeResult ComputeSlice(const ComputeContext& ctx) {
  const std::vector<int64_t>& shape = ctx.input_types[0].shape;
  const int rank = static_cast<int>(shape.size());
  absl::StatusOr<std::vector<int64_t>> starts = IntsAttr(ctx, "starts", {});
  absl::StatusOr<std::vector<int64_t>> ends = IntsAttr(ctx, "ends", {});
  if (!starts.ok()) return starts.status();
  if (!ends.ok()) return ends.status();
  std::vector<int64_t> all(starts->size());
  std::iota(all.begin(), all.end(), 0);
  absl::StatusOr<std::vector<int64_t>> axes = IntsAttr(ctx, "axes", all);
  absl::StatusOr<std::vector<int64_t>> steps =
      IntsAttr(ctx, "steps", std::vector<int64_t>(all.size(), 1));
  if (!axes.ok()) return axes.status();
  if (!steps.ok()) return steps.status();
  std::vector<int64_t> begin(rank, 0), step(rank, 1), count(shape);
  for (size_t i = 0; i < starts->size(); ++i) {
    int a = NormalizedAxis((*axes)[i], rank);
    SliceAxis s = ResolveSlice(shape[a], (*starts)[i], (*ends)[i], (*steps)[i]);
    begin[a] = s.begin;
    step[a] = s.step;
    count[a] = s.count;
  }
  return One(ctx, topi::StridedSliceCompute(ctx.inputs[0], begin, step, count));
}

ComputeResult ComputeSplit(const ComputeContext& ctx) {
  const std::vector<int64_t>& shape = ctx.input_types[0].shape;
  absl::StatusOr<int64_t> axis = IntAttr(ctx, "axis", 0);
  absl::StatusOr<std::vector<int64_t>> sizes = IntsAttr(ctx, "sizes", {});
  if (!axis.ok()) return axis.status();
  if (!sizes.ok()) return sizes.status();
  const int a = NormalizedAxis(*axis, static_cast<int>(shape.size()));
  OpTensors outs;
  std::vector<int64_t> begin(shape.size(), 0), step(shape.size(), 1), count = shape;
  for (int64_t size : *sizes) {
    count[a] = size;
    absl::StatusOr<te::Tensor> part = topi::StridedSliceCompute(ctx.inputs[0], begin, step, count);
    if (!part.ok()) return ctx.Annotate(part.status());
    outs.outputs.push_back(*part);
    begin[a] += size;
  }
  return outs;
}

}  // namespace tunefarm::graph
