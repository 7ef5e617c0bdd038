// Converters of the ONNX ops that the importer evaluates itself, because on static shapes their
// results are constants: Constant, Shape, Size, ConstantOfShape, Range, Gather and Cast (the
// Shape -> Gather -> Unsqueeze -> Concat -> Reshape chains of exported models). Gather on values
// not known at import time becomes the gather op (GatherElements always the gather_elements
// op); the others are unsupported there.
#include <algorithm>
#include <cmath>
#include <cstring>
#include <type_traits>

#include "absl/strings/str_cat.h"
#include "compiler/frontend/onnx/converters.h"
#include "compiler/frontend/onnx/tensor_proto.h"
#include "runtime/data_type.h"

namespace tunefarm::frontend::onnx {
namespace {

using graph::OpKind;
using Ints = std::vector<int64_t>;

// Gather results up to this size are folded; larger ones would be data, not shapes.

absl::StatusOr<runtime::NDArray> IntArray(const Ints& values, std::vector<int64_t> shape) {
  absl::StatusOr<runtime::NDArray> a = runtime::NDArray::Empty(std::move(shape), {kDLInt, 64, 1});
  if (!a.ok()) return a.status();
  if (!values.empty()) std::memcpy(a->data(), values.data(), values.size() * sizeof(int64_t));
  return a;
}

absl::Status Constant(ImportContext& ctx, const NodeProto& node) {
  for (const ::onnx::AttributeProto& attr : node.attribute()) {
    absl::StatusOr<runtime::NDArray> value;
    if (attr.name() == "value") {
      value = ArrayFromTensorProto(attr.t(), absl::StrCat("Constant node '", node.name(), "'"));
    } else if (attr.name() == "value_float") {
      value = runtime::NDArray::Empty({}, {kDLFloat, 32, 1});
      if (value.ok()) *static_cast<float*>(value->data()) = attr.f();
    } else if (attr.name() == "value_floats") {
      value = runtime::NDArray::Empty({attr.floats_size()}, {kDLFloat, 32, 1});
      if (value.ok() && attr.floats_size() > 0) {
        std::memcpy(value->data(), attr.floats().data(), attr.floats_size() * sizeof(float));
      }
    } else if (attr.name() == "value_int") {
      value = IntArray({attr.i()}, {});
    } else if (attr.name() == "value_ints") {
      value = IntArray(Ints(attr.ints().begin(), attr.ints().end()), {attr.ints_size()});
    } else {
      return absl::UnimplementedError(absl::StrCat("Constant node '", node.name(), "': attribute '",
                                                   attr.name(), "' is not supported"));
    }
    if (!value.ok()) return value.status();
    return ctx.DefineConstant(node.output(0), *std::move(value));
  }
  return ctx.Error(node, "has no value");
}

absl::Status Shape(ImportContext& ctx, const NodeProto& node) {
  absl::StatusOr<graph::TensorType> t = ctx.InputType(node, 0);
  if (!t.ok()) return t.status();
  int64_t rank = t->rank();
  absl::StatusOr<int64_t> start = ctx.AttrInt(node, "start", 0);
  absl::StatusOr<int64_t> end = ctx.AttrInt(node, "end", rank);
  if (!start.ok()) return start.status();
  if (!end.ok()) return end.status();
  auto clamp = [rank](int64_t v) { return std::clamp<int64_t>(v < 0 ? v + rank : v, 0, rank); };
  Ints dims(t->shape.begin() + clamp(*start),
            t->shape.begin() + std::max(clamp(*start), clamp(*end)));
  absl::StatusOr<runtime::NDArray> a = IntArray(dims, {static_cast<int64_t>(dims.size())});
  if (!a.ok()) return a.status();
  return ctx.DefineConstant(node.output(0), *std::move(a));
}

double ElementAsDouble(const runtime::NDArray& a, int64_t i) {
  DLDataType t = a.dtype();
  const void* p = a.data();
  if (t.code == kDLFloat) {
    return t.bits == 32 ? static_cast<const float*>(p)[i] : static_cast<const double*>(p)[i];
  }
  return t.bits == 32 ? static_cast<double>(static_cast<const int32_t*>(p)[i])
                      : static_cast<double>(static_cast<const int64_t*>(p)[i]);
}

// A Gather or GatherElements that reads tensors of the graph (an embedding lookup, a class
// token): the graph op, its constant indices checked here since a kernel clamps them.
absl::Status GatherOp(ImportContext& ctx, const NodeProto& node, OpKind op, int64_t axis) {
  absl::StatusOr<graph::TensorType> t = ctx.InputType(node, 0);
  if (!t.ok()) return t.status();
  const runtime::NDArray* c = ctx.ConstantInput(node, 1);
  const int64_t a = axis < 0 ? axis + t->rank() : axis;
  if (c != nullptr && a >= 0 && a < t->rank() && c->dtype().code == kDLInt) {
    for (int64_t i = 0; i < c->NumElements(); ++i) {
      const int64_t k = static_cast<int64_t>(ElementAsDouble(*c, i));
      if (k < -t->shape[a] || k >= t->shape[a]) {
        return ctx.Error(node, absl::StrCat("index ", k, " is out of range for axis ", a, " of ",
                                            t->ToString()));
      }
    }
  }
  absl::StatusOr<graph::ValueId> data = ctx.Input(node, 0);
  if (!data.ok()) return data.status();
  absl::StatusOr<graph::ValueId> indices = ctx.Input(node, 1);
  if (!indices.ok()) return indices.status();
  return ctx.Emit(node, op, {{"axis", axis}}, {*data, *indices});
}

absl::Status GatherElements(ImportContext& ctx, const NodeProto& node) {
  absl::StatusOr<int64_t> axis = ctx.AttrInt(node, "axis", 0);
  if (!axis.ok()) return axis.status();
  return GatherOp(ctx, node, OpKind::kGatherElements, *axis);
}

absl::Status Gather(ImportContext& ctx, const NodeProto& node) {
  absl::StatusOr<int64_t> axis = ctx.AttrInt(node, "axis", 0);
  if (!axis.ok()) return axis.status();
  const runtime::NDArray* data = ctx.ConstantInput(node, 0);
  if (data == nullptr || ctx.ConstantInput(node, 1) == nullptr ||
      data->NumBytes() > static_cast<size_t>(kMaxFoldedBytes)) {
    return GatherOp(ctx, node, OpKind::kGather, *axis);
  }
  const runtime::NDArray* index_array = ctx.ConstantInput(node, 1);
  if (index_array->dtype().code != kDLInt) return ctx.Error(node, "indices must be integers");
  Ints indices_storage(index_array->NumElements());
  for (size_t i = 0; i < indices_storage.size(); ++i) {
    indices_storage[i] = static_cast<int64_t>(ElementAsDouble(*index_array, i));
  }
  const Ints* indices = &indices_storage;
  int rank = data->ndim();
  int64_t a = *axis < 0 ? *axis + rank : *axis;
  if (a < 0 || a >= rank) return ctx.Error(node, "axis is out of range");
  const std::vector<int64_t>& ds = data->shape();
  std::vector<int64_t> shape(ds.begin(), ds.begin() + a);
  const std::vector<int64_t>& is = ctx.ConstantInput(node, 1)->shape();
  shape.insert(shape.end(), is.begin(), is.end());
  shape.insert(shape.end(), ds.begin() + a + 1, ds.end());
  size_t elem = runtime::DataTypeBytes(data->dtype());
  int64_t outer = 1, inner = 1;
  for (int d = 0; d < rank; ++d) (d < a ? outer : inner) *= d == a ? 1 : ds[d];
  int64_t bytes;
  if (__builtin_mul_overflow(outer * inner, static_cast<int64_t>(indices->size() * elem), &bytes) ||
      bytes > kMaxFoldedBytes) {
    return absl::UnimplementedError(
        absl::StrCat("Gather node '", node.name(), "': result too large to fold"));
  }
  absl::StatusOr<runtime::NDArray> out = runtime::NDArray::Empty(shape, data->dtype());
  if (!out.ok()) return out.status();
  char* dst = static_cast<char*>(out->data());
  const char* src = static_cast<const char*>(data->data());
  size_t block = inner * elem;
  for (int64_t o = 0; o < outer; ++o) {
    for (int64_t index : *indices) {
      int64_t k = index < 0 ? index + ds[a] : index;
      if (k < 0 || k >= ds[a])
        return ctx.Error(node, absl::StrCat("index ", index, " is out of range"));
      std::memcpy(dst, src + (o * ds[a] + k) * block, block);
      dst += block;
    }
  }
  return ctx.DefineConstant(node.output(0), *std::move(out));
}

// Converts every element; false when a value does not fit an integer target (NaN, too large),
// which C++ would leave undefined.
template <typename To>
bool ConvertAll(const runtime::NDArray& from, To* to) {
  DLDataType t = from.dtype();
  for (int64_t i = 0; i < from.NumElements(); ++i) {
    if (t.code == kDLInt && t.bits == 64 && std::is_integral_v<To>) {
      to[i] = static_cast<To>(static_cast<const int64_t*>(from.data())[i]);  // wraps, as ONNX
      continue;
    }
    double v = ElementAsDouble(from, i);
    if constexpr (std::is_integral_v<To>) {
      // 2^63 is exact as a double; anything at or above it does not fit int64.
      if (!(v >= -9.2233720368547758e18 && v < 9.2233720368547758e18)) return false;
      to[i] = static_cast<To>(static_cast<int64_t>(v));
    } else {
      to[i] = static_cast<To>(v);
    }
  }
  return true;
}

absl::Status Cast(ImportContext& ctx, const NodeProto& node) {
  absl::StatusOr<int64_t> to = ctx.AttrInt(node, "to", 0);
  if (!to.ok()) return to.status();
  absl::StatusOr<DLDataType> dtype = DataTypeFromOnnx(static_cast<int32_t>(*to));
  if (!dtype.ok()) {
    // Kept Unimplemented for the types that exist but are not supported (strings, complex).
    const absl::Status named = ctx.Error(node, std::string(dtype.status().message()));
    return absl::Status(dtype.status().code(), named.message());
  }
  absl::StatusOr<graph::TensorType> t = ctx.InputType(node, 0);
  if (!t.ok()) return t.status();
  const runtime::NDArray* c = ctx.ConstantInput(node, 0);
  if (runtime::SameDataType(t->dtype, *dtype)) {
    if (c != nullptr) {
      absl::StatusOr<runtime::NDArray> view = c->View(c->shape());
      if (!view.ok()) return view.status();
      return ctx.DefineConstant(node.output(0), *std::move(view));
    }
    absl::StatusOr<graph::ValueId> x = ctx.Input(node, 0);
    if (!x.ok()) return x.status();
    return ctx.DefineValue(node, 0, *x);
  }
  auto numeric = [](DLDataType d) {
    return (d.code == kDLFloat || d.code == kDLInt) && (d.bits == 32 || d.bits == 64);
  };
  if (c == nullptr || !numeric(t->dtype) || !numeric(*dtype) ||
      c->NumBytes() > static_cast<size_t>(kMaxFoldedBytes)) {
    // Not foldable here: the cast op (a constant one is folded by the graph's passes).
    absl::StatusOr<graph::ValueId> x = ctx.Input(node, 0);
    if (!x.ok()) return x.status();
    return ctx.Emit(node, OpKind::kCast, {{"to", runtime::DataTypeToString(*dtype)}}, {*x});
  }
  absl::StatusOr<runtime::NDArray> out = runtime::NDArray::Empty(c->shape(), *dtype);
  if (!out.ok()) return out.status();
  void* dst = out->data();
  bool ok = dtype->code == kDLFloat
                ? (dtype->bits == 32 ? ConvertAll(*c, static_cast<float*>(dst))
                                     : ConvertAll(*c, static_cast<double*>(dst)))
                : (dtype->bits == 32 ? ConvertAll(*c, static_cast<int32_t*>(dst))
                                     : ConvertAll(*c, static_cast<int64_t*>(dst)));
  if (!ok) return ctx.Error(node, "a value does not fit the target type");
  return ctx.DefineConstant(node.output(0), *std::move(out));
}

absl::Status Size(ImportContext& ctx, const NodeProto& node) {
  absl::StatusOr<graph::TensorType> t = ctx.InputType(node, 0);
  if (!t.ok()) return t.status();
  absl::StatusOr<int64_t> n = t->NumElements();
  if (!n.ok()) return ctx.Error(node, std::string(n.status().message()));
  absl::StatusOr<runtime::NDArray> a = IntArray({*n}, {});
  if (!a.ok()) return a.status();
  return ctx.DefineConstant(node.output(0), *std::move(a));
}

// A tensor of `shape` (a constant input) filled with the one value of attribute `value` (a float32
// 0 by default).
absl::Status ConstantOfShape(ImportContext& ctx, const NodeProto& node) {
  absl::StatusOr<Ints> shape = ctx.ConstantInts(node, 0, "shape");
  if (!shape.ok()) return shape.status();
  absl::StatusOr<int64_t> count = graph::CheckedNumElements(*shape);
  if (!count.ok()) return ctx.Error(node, std::string(count.status().message()));
  runtime::NDArray fill;
  for (const ::onnx::AttributeProto& attr : node.attribute()) {
    if (attr.name() != "value") continue;
    absl::StatusOr<runtime::NDArray> v = ArrayFromTensorProto(attr.t(), "ConstantOfShape value");
    if (!v.ok()) return v.status();
    if (v->NumElements() != 1) return ctx.Error(node, "value must have one element");
    fill = *std::move(v);
  }
  if (!fill.defined()) {
    absl::StatusOr<runtime::NDArray> zero = runtime::NDArray::Empty({}, {kDLFloat, 32, 1});
    if (!zero.ok()) return zero.status();
    *static_cast<float*>(zero->data()) = 0.0f;
    fill = *std::move(zero);
  }
  const size_t elem = runtime::DataTypeBytes(fill.dtype());
  if (*count * static_cast<int64_t>(elem) > kMaxFoldedBytes) {
    return absl::UnimplementedError(
        absl::StrCat("ConstantOfShape node '", node.name(), "': result too large to fold"));
  }
  absl::StatusOr<runtime::NDArray> out = runtime::NDArray::Empty(*shape, fill.dtype());
  if (!out.ok()) return out.status();
  char* dst = static_cast<char*>(out->data());
  for (int64_t i = 0; i < *count; ++i) std::memcpy(dst + i * elem, fill.data(), elem);
  return ctx.DefineConstant(node.output(0), *std::move(out));
}

// start, start + delta, ... below `limit` (above it for a negative delta), of the inputs' type.
absl::Status Range(ImportContext& ctx, const NodeProto& node) {
  double v[3];
  static constexpr const char* kNames[] = {"start", "limit", "delta"};
  for (int i = 0; i < 3; ++i) {
    absl::StatusOr<double> s = ctx.ConstantScalar(node, i, kNames[i]);
    if (!s.ok()) return s.status();
    v[i] = *s;
  }
  if (v[2] == 0) return ctx.Error(node, "delta must not be 0");
  const double steps = std::ceil((v[1] - v[0]) / v[2]);
  const int64_t n = steps > 0 ? static_cast<int64_t>(std::min(steps, 1e15)) : 0;
  const DLDataType t = ctx.ConstantInput(node, 0)->dtype();
  if (n * static_cast<int64_t>(runtime::DataTypeBytes(t)) > kMaxFoldedBytes) {
    return absl::UnimplementedError(
        absl::StrCat("Range node '", node.name(), "': result too large to fold"));
  }
  absl::StatusOr<runtime::NDArray> out = runtime::NDArray::Empty({n}, t);
  if (!out.ok()) return out.status();
  for (int64_t i = 0; i < n; ++i) {
    // ONNX computes start + i * delta in the inputs' type.
    if (t.code == kDLFloat && t.bits == 32) {
      static_cast<float*>(out->data())[i] =
          static_cast<float>(v[0]) + static_cast<float>(i) * static_cast<float>(v[2]);
    } else if (t.code == kDLFloat) {
      static_cast<double*>(out->data())[i] = v[0] + static_cast<double>(i) * v[2];
    } else if (t.bits == 32) {
      static_cast<int32_t*>(out->data())[i] = static_cast<int32_t>(v[0] + i * v[2]);
    } else {
      static_cast<int64_t*>(out->data())[i] =
          static_cast<int64_t>(v[0]) + i * static_cast<int64_t>(v[2]);
    }
  }
  return ctx.DefineConstant(node.output(0), *std::move(out));
}

constexpr OnnxConverter kFoldConverters[] = {
    {"Constant", &Constant},
    {"Shape", &Shape},
    {"Size", &Size},
    {"ConstantOfShape", &ConstantOfShape},
    {"Range", &Range},
    {"Gather", &Gather},
    {"GatherElements", &GatherElements},
    {"Cast", &Cast},
};

}  // namespace

std::span<const OnnxConverter> FoldConverters() { return kFoldConverters; }

}  // namespace tunefarm::frontend::onnx
