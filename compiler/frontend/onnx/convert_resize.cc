// Converters of ONNX's Resize (opsets 10 to 21) and Upsample: scales or sizes, which must be
// constants, become the resize op's output sizes; the modes and coordinate transformations map
// one to one.
#include <cmath>

#include "absl/strings/str_cat.h"
#include "compiler/frontend/onnx/converters.h"

namespace tunefarm::frontend::onnx {
namespace {

using graph::Attributes;
using graph::OpKind;
using Ints = std::vector<int64_t>;

// A constant float input as doubles; an empty list when it is absent or has no elements.
absl::StatusOr<std::vector<double>> ConstantFloats(ImportContext& ctx, const NodeProto& node, int i,
                                                   const char* what) {
  if (!ctx.HasInput(node, i)) return std::vector<double>{};
  const runtime::NDArray* a = ctx.ConstantInput(node, i);
  if (a == nullptr) {
    return ctx.Error(node, absl::StrCat(what, " (input ", i, ") must be a constant"));
  }
  const DLDataType t = a->dtype();
  if (t.code != kDLFloat || (t.bits != 32 && t.bits != 64) || a->ndim() > 1) {
    return ctx.Error(node, absl::StrCat(what, " must be a 1-D float tensor"));
  }
  std::vector<double> out(a->NumElements());
  for (size_t k = 0; k < out.size(); ++k) {
    out[k] = t.bits == 32 ? static_cast<const float*>(a->data())[k]
                          : static_cast<const double*>(a->data())[k];
  }
  return out;
}

// The output sizes, and the scales ONNX's coordinate transformations use (given or out/in), from
// `scales` or `sizes` of the axes `axes` (all by default).
absl::Status ResolveSizes(ImportContext& ctx, const NodeProto& node, const Ints& in,
                          const std::vector<double>& scales, const Ints& sizes, Ints axes,
                          Attributes& attrs) {
  const int64_t rank = static_cast<int64_t>(in.size());
  if (axes.empty()) {
    for (int64_t d = 0; d < rank; ++d) axes.push_back(d);
  }
  for (int64_t& a : axes) {
    if (a < 0) a += rank;
    if (a < 0 || a >= rank) return ctx.Error(node, "an axis in 'axes' is out of range");
  }
  Ints out = in;
  std::vector<double> all_scales(rank, 1.0);
  if (!sizes.empty()) {
    if (sizes.size() != axes.size()) return ctx.Error(node, "sizes must have one entry per axis");
    for (size_t k = 0; k < axes.size(); ++k) out[axes[k]] = sizes[k];
    attrs.Set("sizes", out);
    return absl::OkStatus();
  }
  if (scales.size() != axes.size()) {
    return ctx.Error(node, "needs scales (one per axis) or sizes");
  }
  for (size_t k = 0; k < axes.size(); ++k) {
    if (!(scales[k] > 0) || !std::isfinite(scales[k])) {
      return ctx.Error(node, "scales must be positive");
    }
    const double size = std::floor(static_cast<double>(in[axes[k]]) * scales[k]);
    if (!(size >= 1) || size > static_cast<double>(graph::kMaxElements)) {
      return ctx.Error(node, absl::StrCat("scale ", scales[k], " gives an axis of size ", size));
    }
    out[axes[k]] = static_cast<int64_t>(size);
    all_scales[axes[k]] = scales[k];
  }
  attrs.Set("sizes", out);
  attrs.Set("scales", all_scales);
  return absl::OkStatus();
}

absl::Status Resize(ImportContext& ctx, const NodeProto& node) {
  absl::StatusOr<graph::TensorType> t = ctx.InputType(node, 0);
  if (!t.ok()) return t.status();
  absl::StatusOr<std::string> mode = ctx.AttrString(node, "mode", "nearest");
  absl::StatusOr<std::string> coordinates = ctx.AttrString(
      node, "coordinate_transformation_mode", ctx.opset() < 11 ? "asymmetric" : "half_pixel");
  absl::StatusOr<std::string> rounding =
      ctx.AttrString(node, "nearest_mode", ctx.opset() < 11 ? "floor" : "round_prefer_floor");
  absl::StatusOr<double> cubic_a = ctx.AttrFloat(node, "cubic_coeff_a", -0.75);
  absl::StatusOr<int64_t> exclude = ctx.AttrInt(node, "exclude_outside", 0);
  absl::StatusOr<Ints> axes = ctx.AttrInts(node, "axes", {});
  for (const absl::Status& s : {mode.status(), coordinates.status(), rounding.status(),
                                cubic_a.status(), exclude.status(), axes.status()}) {
    if (!s.ok()) return s;
  }
  Attributes attrs{{"mode", *mode},
                   {"coordinates", *coordinates},
                   {"rounding", *rounding},
                   {"cubic_a", *cubic_a},
                   {"exclude_outside", *exclude}};
  // Opset 10: (X, scales); 11 on: (X, roi, scales, sizes), roi used only by tf_crop_and_resize.
  const int scales_input = ctx.opset() < 11 ? 1 : 2;
  absl::StatusOr<std::vector<double>> scales = ConstantFloats(ctx, node, scales_input, "scales");
  if (!scales.ok()) return scales.status();
  Ints sizes;
  if (ctx.opset() >= 11 && ctx.HasInput(node, 3)) {
    absl::StatusOr<Ints> s = ctx.ConstantInts(node, 3, "sizes");
    if (!s.ok()) return s.status();
    sizes = *s;
  }
  absl::Status s = ResolveSizes(ctx, node, t->shape, *scales, sizes, *axes, attrs);
  if (!s.ok()) return s;
  absl::StatusOr<graph::ValueId> x = ctx.Input(node, 0);
  if (!x.ok()) return x.status();
  return ctx.Emit(node, OpKind::kResize, std::move(attrs), {*x});
}

// Upsample (deprecated since opset 10): nearest or linear with asymmetric coordinates, nearest
// rounding down; scales an attribute before opset 9 and an input from it.
absl::Status Upsample(ImportContext& ctx, const NodeProto& node) {
  absl::StatusOr<graph::TensorType> t = ctx.InputType(node, 0);
  if (!t.ok()) return t.status();
  absl::StatusOr<std::string> mode = ctx.AttrString(node, "mode", "nearest");
  if (!mode.ok()) return mode.status();
  if (*mode == "bilinear") *mode = "linear";
  std::vector<double> scales;
  if (ctx.opset() >= 9) {
    absl::StatusOr<std::vector<double>> v = ConstantFloats(ctx, node, 1, "scales");
    if (!v.ok()) return v.status();
    scales = *v;
  } else {
    for (const ::onnx::AttributeProto& a : node.attribute()) {
      if (a.name() == "scales") scales.assign(a.floats().begin(), a.floats().end());
    }
  }
  Attributes attrs{{"mode", *mode},
                   {"coordinates", std::string("asymmetric")},
                   {"rounding", std::string("floor")}};
  absl::Status s = ResolveSizes(ctx, node, t->shape, scales, {}, {}, attrs);
  if (!s.ok()) return s;
  absl::StatusOr<graph::ValueId> x = ctx.Input(node, 0);
  if (!x.ok()) return x.status();
  return ctx.Emit(node, OpKind::kResize, std::move(attrs), {*x});
}

constexpr OnnxConverter kResizeConverters[] = {
    {"Resize", &Resize, 10},
    {"Upsample", &Upsample},
};

}  // namespace

std::span<const OnnxConverter> ResizeConverters() { return kResizeConverters; }

}  // namespace tunefarm::frontend::onnx
