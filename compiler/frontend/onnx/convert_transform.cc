// Converters of the ONNX ops that move data: Flatten, Reshape, Transpose, Concat, Pad, Slice,
// Split, Squeeze, Unsqueeze, Expand, Tile, DepthToSpace and SpaceToDepth. Their
// parameters became inputs in later opsets (Reshape 5, Slice 10, Pad 11, Split/Squeeze/Unsqueeze
// 13); those inputs must be constants and become attributes. On constant data the shape-only ops
// and Concat are folded, as the shape chains of exported models need.
#include <cstring>

#include "absl/strings/str_cat.h"
#include "compiler/frontend/onnx/converters.h"
#include "compiler/graph/op_registry.h"
#include "runtime/data_type.h"

namespace tunefarm::frontend::onnx {
namespace {

using graph::Attributes;
using graph::OpKind;
using Ints = std::vector<int64_t>;

// Folds a constant's concatenations up to this size; larger ones stay graph ops.

// Emits `op` on input 0, or, when input 0 is a constant and `op` only changes its shape,
// defines the output as a view of the constant.
absl::Status EmitOrView(ImportContext& ctx, const NodeProto& node, OpKind op, Attributes attrs) {
  if (const runtime::NDArray* c = ctx.ConstantInput(node, 0)) {
    graph::Node probe{op, node.name(), attrs, {}, {}};
    graph::TensorType type{c->dtype(), c->shape()};
    absl::StatusOr<std::vector<graph::TensorType>> out =
        graph::InferOutputTypes(probe, std::span(&type, 1));
    if (!out.ok()) return ctx.Error(node, std::string(out.status().message()));
    absl::StatusOr<runtime::NDArray> view = c->View((*out)[0].shape);
    if (!view.ok()) return view.status();
    return ctx.DefineConstant(node.output(0), *std::move(view));
  }
  absl::StatusOr<graph::ValueId> x = ctx.Input(node, 0);
  if (!x.ok()) return x.status();
  return ctx.Emit(node, op, std::move(attrs), {*x});
}

// A parameter that is attribute `name` before `input_opset` and input `index` from then on.
absl::StatusOr<Ints> AttrOrInput(ImportContext& ctx, const NodeProto& node, const char* name,
                                 int64_t input_opset, int index, const Ints& fallback) {
  if (ctx.opset() < input_opset) return ctx.AttrInts(node, name, fallback);
  if (!ctx.HasInput(node, index)) return fallback;
  return ctx.ConstantInts(node, index, name);
}

absl::Status Flatten(ImportContext& ctx, const NodeProto& node) {
  absl::StatusOr<int64_t> axis = ctx.AttrInt(node, "axis", 1);
  if (!axis.ok()) return axis.status();
  return EmitOrView(ctx, node, OpKind::kFlatten, {{"axis", *axis}});
}

absl::Status Reshape(ImportContext& ctx, const NodeProto& node) {
  absl::StatusOr<Ints> shape = ctx.ConstantInts(node, 1, "shape");
  if (!shape.ok()) return shape.status();
  absl::StatusOr<int64_t> allow_zero = ctx.AttrInt(node, "allowzero", 0);
  if (!allow_zero.ok()) return allow_zero.status();
  Attributes attrs{{"shape", *shape}};
  if (*allow_zero) attrs.Set("allow_zero", *allow_zero);
  return EmitOrView(ctx, node, OpKind::kReshape, std::move(attrs));
}

absl::Status Squeeze(ImportContext& ctx, const NodeProto& node) {
  absl::StatusOr<Ints> axes = AttrOrInput(ctx, node, "axes", 13, 1, {});
  if (!axes.ok()) return axes.status();
  Attributes attrs;
  if (!axes->empty()) attrs.Set("axes", *axes);
  return EmitOrView(ctx, node, OpKind::kSqueeze, std::move(attrs));
}

absl::Status Unsqueeze(ImportContext& ctx, const NodeProto& node) {
  absl::StatusOr<Ints> axes = AttrOrInput(ctx, node, "axes", 13, 1, {});
  if (!axes.ok()) return axes.status();
  return EmitOrView(ctx, node, OpKind::kUnsqueeze, {{"axes", *axes}});
}

absl::Status Transpose(ImportContext& ctx, const NodeProto& node) {
  Attributes attrs;
  if (ctx.HasAttr(node, "perm")) {
    absl::StatusOr<Ints> perm = ctx.AttrInts(node, "perm", {});
    if (!perm.ok()) return perm.status();
    attrs.Set("perm", *perm);
  }
  absl::StatusOr<graph::ValueId> x = ctx.Input(node, 0);
  if (!x.ok()) return x.status();
  return ctx.Emit(node, OpKind::kTranspose, std::move(attrs), {*x});
}

// Concatenation of constants (shape lists, mostly), done at import.
absl::Status FoldConcat(ImportContext& ctx, const NodeProto& node, int64_t axis,
                        const graph::TensorType& out_type) {
  int rank = out_type.rank();
  int a = static_cast<int>(axis < 0 ? axis + rank : axis);
  absl::StatusOr<runtime::NDArray> out = runtime::NDArray::Empty(out_type.shape, out_type.dtype);
  if (!out.ok()) return out.status();
  size_t elem = runtime::DataTypeBytes(out_type.dtype);
  int64_t outer = 1;
  for (int d = 0; d < a; ++d) outer *= out_type.shape[d];
  char* dst = static_cast<char*>(out->data());
  for (int64_t o = 0; o < outer; ++o) {
    for (int i = 0; i < node.input_size(); ++i) {
      const runtime::NDArray* c = ctx.ConstantInput(node, i);
      size_t block = elem;
      for (int d = a; d < rank; ++d) block *= c->shape()[d];
      std::memcpy(dst, static_cast<const char*>(c->data()) + o * block, block);
      dst += block;
    }
  }
  return ctx.DefineConstant(node.output(0), *std::move(out));
}

absl::Status Concat(ImportContext& ctx, const NodeProto& node) {
  absl::StatusOr<int64_t> axis = ctx.AttrInt(node, "axis", 0);
  if (!axis.ok()) return axis.status();
  if (!ctx.HasAttr(node, "axis")) return ctx.Error(node, "attribute 'axis' is required");
  std::vector<graph::TensorType> types;
  bool all_constant = true;
  for (int i = 0; i < node.input_size(); ++i) {
    absl::StatusOr<graph::TensorType> t = ctx.InputType(node, i);
    if (!t.ok()) return t.status();
    types.push_back(*t);
    all_constant = all_constant && ctx.ConstantInput(node, i) != nullptr;
  }
  Attributes attrs{{"axis", *axis}};
  graph::Node probe{OpKind::kConcat, node.name(), attrs, {}, {}};
  absl::StatusOr<std::vector<graph::TensorType>> out = graph::InferOutputTypes(probe, types);
  if (!out.ok()) return ctx.Error(node, std::string(out.status().message()));
  if (all_constant && *(*out)[0].NumBytes() <= kMaxFoldedBytes) {
    return FoldConcat(ctx, node, *axis, (*out)[0]);
  }
  std::vector<graph::ValueId> inputs;
  for (int i = 0; i < node.input_size(); ++i) {
    absl::StatusOr<graph::ValueId> v = ctx.Input(node, i);
    if (!v.ok()) return v.status();
    inputs.push_back(*v);
  }
  return ctx.Emit(node, OpKind::kConcat, std::move(attrs), std::move(inputs));
}

absl::Status Pad(ImportContext& ctx, const NodeProto& node) {
  absl::StatusOr<Ints> pads = AttrOrInput(ctx, node, "pads", 11, 1, {});
  if (!pads.ok()) return pads.status();
  if (ctx.HasInput(node, 3)) {
    // From opset 18 the pads may name only some axes: spread them over all of them.
    absl::StatusOr<Ints> axes = ctx.ConstantInts(node, 3, "axes");
    if (!axes.ok()) return axes.status();
    absl::StatusOr<graph::TensorType> t = ctx.InputType(node, 0);
    if (!t.ok()) return t.status();
    const int64_t rank = t->rank();
    if (pads->size() != 2 * axes->size()) {
      return ctx.Error(node, "pads must have two entries per axis in 'axes'");
    }
    Ints full(2 * rank, 0);
    for (size_t i = 0; i < axes->size(); ++i) {
      const int64_t a = (*axes)[i] < 0 ? (*axes)[i] + rank : (*axes)[i];
      if (a < 0 || a >= rank) return ctx.Error(node, "an axis in 'axes' is out of range");
      full[a] = (*pads)[i];
      full[a + rank] = (*pads)[i + axes->size()];
    }
    *pads = std::move(full);
  }
  double value = 0;
  if (ctx.opset() < 11) {
    absl::StatusOr<double> v = ctx.AttrFloat(node, "value", 0.0);
    if (!v.ok()) return v.status();
    value = *v;
  } else if (ctx.HasInput(node, 2)) {
    absl::StatusOr<double> v = ctx.ConstantScalar(node, 2, "constant_value");
    if (!v.ok()) return v.status();
    value = *v;
  }
  absl::StatusOr<graph::ValueId> x = ctx.Input(node, 0);
  if (!x.ok()) return x.status();
  return ctx.Emit(node, OpKind::kPad, {{"pads", *pads}, {"value", value}}, {*x});
}

absl::Status Slice(ImportContext& ctx, const NodeProto& node) {
  Attributes attrs;
  static constexpr const char* kNames[] = {"starts", "ends", "axes", "steps"};
  for (int i = 0; i < 4; ++i) {
    bool given = ctx.opset() < 10 ? ctx.HasAttr(node, kNames[i]) : ctx.HasInput(node, i + 1);
    if (!given) continue;
    absl::StatusOr<Ints> v = AttrOrInput(ctx, node, kNames[i], 10, i + 1, {});
    if (!v.ok()) return v.status();
    attrs.Set(kNames[i], *v);
  }
  absl::StatusOr<graph::ValueId> x = ctx.Input(node, 0);
  if (!x.ok()) return x.status();
  return ctx.Emit(node, OpKind::kSlice, std::move(attrs), {*x});
}

absl::Status Split(ImportContext& ctx, const NodeProto& node) {
  absl::StatusOr<int64_t> axis = ctx.AttrInt(node, "axis", 0);
  if (!axis.ok()) return axis.status();
  absl::StatusOr<Ints> sizes = AttrOrInput(ctx, node, "split", 13, 1, {});
  if (!sizes.ok()) return sizes.status();
  absl::StatusOr<graph::TensorType> t = ctx.InputType(node, 0);
  if (!t.ok()) return t.status();
  if (sizes->empty()) {
    // Equal parts, one per output; from opset 18 `num_outputs` may leave a smaller last part.
    absl::StatusOr<int64_t> num_outputs = ctx.AttrInt(node, "num_outputs", 0);
    if (!num_outputs.ok()) return num_outputs.status();
    int64_t a = *axis < 0 ? *axis + t->rank() : *axis;
    int64_t parts = node.output_size();
    const bool uneven = *num_outputs > 0;
    if (uneven && *num_outputs != parts) {
      return ctx.Error(node, "num_outputs differs from the number of outputs");
    }
    if (a < 0 || a >= t->rank() || parts == 0 || (!uneven && t->shape[a] % parts != 0)) {
      return ctx.Error(node, absl::StrCat("cannot split ", t->ToString(), " on axis ", *axis,
                                          " into ", parts, " equal parts"));
    }
    const int64_t part = (t->shape[a] + parts - 1) / parts;
    if (part * (parts - 1) >= t->shape[a] && parts > 1) {
      return ctx.Error(node, absl::StrCat("cannot split ", t->ToString(), " on axis ", *axis,
                                          " into ", parts, " parts"));
    }
    sizes->assign(parts, part);
    sizes->back() = t->shape[a] - part * (parts - 1);
  }
  if (static_cast<int>(sizes->size()) != node.output_size()) {
    return ctx.Error(node, "the split sizes and the outputs differ in number");
  }
  absl::StatusOr<graph::ValueId> x = ctx.Input(node, 0);
  if (!x.ok()) return x.status();
  return ctx.Emit(node, OpKind::kSplit, {{"axis", *axis}, {"sizes", *sizes}}, {*x});
}

// DepthToSpace and SpaceToDepth as reshape -> transpose -> reshape over [N, C, H, W].
absl::Status BlockRearrange(ImportContext& ctx, const NodeProto& node) {
  absl::StatusOr<int64_t> block = ctx.AttrInt(node, "blocksize", 0);
  absl::StatusOr<std::string> mode = ctx.AttrString(node, "mode", "DCR");
  absl::StatusOr<graph::TensorType> t = ctx.InputType(node, 0);
  if (!block.ok()) return block.status();
  if (!mode.ok()) return mode.status();
  if (!t.ok()) return t.status();
  if (t->rank() != 4) return ctx.Error(node, "input must be [N, C, H, W], got " + t->ToString());
  const int64_t b = *block, n = t->shape[0], c = t->shape[1], h = t->shape[2], w = t->shape[3];
  if (b < 1 || b > 4096) return ctx.Error(node, "blocksize must be between 1 and 4096");
  Ints split, perm, out;
  if (node.op_type() == "DepthToSpace") {
    if (c % (b * b) != 0) return ctx.Error(node, "channels must be a multiple of blocksize^2");
    if (*mode != "DCR" && *mode != "CRD") return ctx.Error(node, "mode must be DCR or CRD");
    const int64_t cc = c / (b * b);
    split = *mode == "DCR" ? Ints{n, b, b, cc, h, w} : Ints{n, cc, b, b, h, w};
    perm = *mode == "DCR" ? Ints{0, 3, 4, 1, 5, 2} : Ints{0, 1, 4, 2, 5, 3};
    out = {n, cc, h * b, w * b};
  } else {
    if (h % b != 0 || w % b != 0)
      return ctx.Error(node, "height and width must be multiples of blocksize");
    split = {n, c, h / b, b, w / b, b};
    perm = {0, 3, 5, 1, 2, 4};
    out = {n, c * b * b, h / b, w / b};
  }
  absl::StatusOr<graph::ValueId> x = ctx.Input(node, 0);
  if (!x.ok()) return x.status();
  graph::Graph& g = ctx.graph();
  const std::string name = node.name();
  auto part = [&](const char* suffix) { return name.empty() ? std::string() : name + suffix; };
  absl::StatusOr<std::vector<graph::ValueId>> blocks =
      g.AddOp(OpKind::kReshape, part("/blocks"), {{"shape", split}}, {*x});
  if (!blocks.ok()) return ctx.Error(node, std::string(blocks.status().message()));
  absl::StatusOr<std::vector<graph::ValueId>> moved =
      g.AddOp(OpKind::kTranspose, part("/moved"), {{"perm", perm}}, {(*blocks)[0]});
  if (!moved.ok()) return ctx.Error(node, std::string(moved.status().message()));
  return ctx.Emit(node, OpKind::kReshape, {{"shape", out}}, {(*moved)[0]});
}

absl::Status Expand(ImportContext& ctx, const NodeProto& node) {
  absl::StatusOr<Ints> shape = ctx.ConstantInts(node, 1, "shape");
  if (!shape.ok()) return shape.status();
  absl::StatusOr<graph::ValueId> x = ctx.Input(node, 0);
  if (!x.ok()) return x.status();
  return ctx.Emit(node, OpKind::kExpand, {{"shape", *shape}}, {*x});
}

absl::Status Tile(ImportContext& ctx, const NodeProto& node) {
  absl::StatusOr<Ints> repeats = ctx.ConstantInts(node, 1, "repeats");
  if (!repeats.ok()) return repeats.status();
  absl::StatusOr<graph::ValueId> x = ctx.Input(node, 0);
  if (!x.ok()) return x.status();
  return ctx.Emit(node, OpKind::kTile, {{"repeats", *repeats}}, {*x});
}

constexpr OnnxConverter kTransformConverters[] = {
    {"Flatten", &Flatten},
    {"Reshape", &Reshape, 5},
    {"Transpose", &Transpose},
    {"Concat", &Concat},
    {"Pad", &Pad},
    {"Slice", &Slice},
    {"Split", &Split},
    {"Squeeze", &Squeeze},
    {"Unsqueeze", &Unsqueeze},
    {"DepthToSpace", &BlockRearrange},
    {"SpaceToDepth", &BlockRearrange},
    {"Expand", &Expand},
    {"Tile", &Tile},
};

}  // namespace

std::span<const OnnxConverter> TransformConverters() { return kTransformConverters; }

}  // namespace tunefarm::frontend::onnx
