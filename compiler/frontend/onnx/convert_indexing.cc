// ONNX's GatherND as a Gather over the data with its indexed axes (and batch axes) flattened into
// one: each index tuple becomes one position there, so it runs on the graph's gather op.
#include <vector>

#include "absl/strings/str_cat.h"
#include "compiler/frontend/onnx/converters.h"

namespace tunefarm::frontend::onnx {
namespace {

using graph::OpKind;
using Ints = std::vector<int64_t>;

// data [b..., m indexed..., rest...], indices [b..., k..., m]: out [b..., k..., rest...] =
// data[b..., indices[b..., k..., :], rest...]. Negative indices count from their axis's end.
absl::Status GatherND(ImportContext& ctx, const NodeProto& node) {
  absl::StatusOr<graph::TensorType> dt = ctx.InputType(node, 0);
  absl::StatusOr<graph::TensorType> it = ctx.InputType(node, 1);
  absl::StatusOr<graph::ValueId> data = ctx.Input(node, 0);
  absl::StatusOr<graph::ValueId> indices = ctx.Input(node, 1);
  absl::StatusOr<int64_t> batch_dims = ctx.AttrInt(node, "batch_dims", 0);
  for (const absl::Status& s :
       {dt.status(), it.status(), data.status(), indices.status(), batch_dims.status()}) {
    if (!s.ok()) return s;
  }
  const int64_t r = dt->rank(), q = it->rank(), b = *batch_dims;
  if (q < 1 || b < 0 || b >= std::min(r, q)) {
    return ctx.Error(node, absl::StrCat("batch_dims ", b, " must be below the ranks of data ",
                                        dt->ToString(), " and indices ", it->ToString()));
  }
  const int64_t m = it->shape[q - 1];
  if (m < 1 || b + m > r) {
    return ctx.Error(node, absl::StrCat("indices ", it->ToString(), " index ", m, " axes; data ",
                                        dt->ToString(), " has ", r - b, " after its batch axes"));
  }
  for (int64_t d = 0; d < b; ++d) {
    if (dt->shape[d] != it->shape[d]) {
      return ctx.Error(node, "data and indices differ in their batch axes");
    }
  }
  if (it->dtype.code != kDLInt) return ctx.Error(node, "indices must be integers");
  const DLDataType i64{kDLInt, 64, 1};
  graph::ValueId index = *indices;
  if (it->dtype.bits != 64) {
    absl::StatusOr<graph::ValueId> cast = ctx.EmitInner(node, OpKind::kCast, "/indices_int64",
                                                        {{"to", std::string("int64")}}, {index});
    if (!cast.ok()) return cast.status();
    index = *cast;
  }
  // Each tuple's components: negative ones wrapped by their axis's extent, then weighted by the
  // strides of the indexed axes and summed into one position.
  absl::StatusOr<runtime::NDArray> extents = runtime::NDArray::Empty({m}, i64);
  absl::StatusOr<runtime::NDArray> strides = runtime::NDArray::Empty({m}, i64);
  if (!extents.ok()) return extents.status();
  if (!strides.ok()) return strides.status();
  int64_t indexed = 1;
  for (int64_t k = m - 1; k >= 0; --k) {
    static_cast<int64_t*>(extents->data())[k] = dt->shape[b + k];
    static_cast<int64_t*>(strides->data())[k] = indexed;
    indexed *= dt->shape[b + k];
  }
  graph::Graph& g = ctx.graph();
  const graph::ValueId extent =
      g.AddConstant(ImportContext::PartName(node, "/extents"), *std::move(extents));
  const graph::ValueId stride =
      g.AddConstant(ImportContext::PartName(node, "/strides"), *std::move(strides));
  absl::StatusOr<graph::ValueId> zero = ctx.AddScalar(node, "/zero", i64, 0);
  if (!zero.ok()) return zero.status();
  absl::StatusOr<graph::ValueId> negative = ctx.EmitInner(
      node, OpKind::kCompare, "/negative", {{"fn", std::string("less")}}, {index, *zero});
  absl::StatusOr<graph::ValueId> wrapped =
      ctx.EmitInner(node, OpKind::kAdd, "/wrapped", {}, {index, extent});
  if (!negative.ok()) return negative.status();
  if (!wrapped.ok()) return wrapped.status();
  absl::StatusOr<graph::ValueId> components =
      ctx.EmitInner(node, OpKind::kWhere, "/components", {}, {*negative, *wrapped, index});
  if (!components.ok()) return components.status();
  absl::StatusOr<graph::ValueId> weighted =
      ctx.EmitInner(node, OpKind::kMul, "/weighted", {}, {*components, stride});
  if (!weighted.ok()) return weighted.status();
  absl::StatusOr<graph::ValueId> position = ctx.EmitInner(
      node, OpKind::kReduce, "/position",
      {{"fn", std::string("sum")}, {"keep_dims", int64_t{0}}, {"axes", Ints{q - 1}}}, {*weighted});
  if (!position.ok()) return position.status();
  // With batch axes, each tuple also moves to its batch's block of `indexed` positions.
  int64_t batches = 1;
  for (int64_t d = 0; d < b; ++d) batches *= dt->shape[d];
  graph::ValueId flat_position = *position;
  if (b > 0) {
    Ints offset_shape(it->shape.begin(), it->shape.begin() + b);
    offset_shape.resize(static_cast<size_t>(q - 1), 1);
    absl::StatusOr<runtime::NDArray> offsets = runtime::NDArray::Empty(offset_shape, i64);
    if (!offsets.ok()) return offsets.status();
    for (int64_t i = 0; i < batches; ++i) static_cast<int64_t*>(offsets->data())[i] = i * indexed;
    const graph::ValueId offset =
        g.AddConstant(ImportContext::PartName(node, "/batch_offsets"), *std::move(offsets));
    absl::StatusOr<graph::ValueId> moved =
        ctx.EmitInner(node, OpKind::kAdd, "/in_batch", {}, {*position, offset});
    if (!moved.ok()) return moved.status();
    flat_position = *moved;
  }
  Ints flat_shape = {batches * indexed};
  flat_shape.insert(flat_shape.end(), dt->shape.begin() + b + m, dt->shape.end());
  absl::StatusOr<graph::ValueId> flat =
      ctx.EmitInner(node, OpKind::kReshape, "/flat", {{"shape", flat_shape}}, {*data});
  if (!flat.ok()) return flat.status();
  return ctx.Emit(node, OpKind::kGather, {{"axis", int64_t{0}}}, {*flat, flat_position});
}

constexpr OnnxConverter kIndexingConverters[] = {
    {"GatherND", &GatherND, 11},
};

}  // namespace

std::span<const OnnxConverter> IndexingConverters() { return kIndexingConverters; }

}  // namespace tunefarm::frontend::onnx
