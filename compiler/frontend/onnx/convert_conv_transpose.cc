// ONNX's ConvTranspose (1-D and 2-D) as the convolution it equals, so that it runs on the tuned
// conv kernels: the input spread out by the strides (zeros between its pixels), padded by the
// dilated kernel's extent less the pads, and convolved at stride 1 with the weight flipped in
// space and its in/out channels swapped within each group. The weight's rearrangement is graph
// ops; a constant weight has them folded when the module is built.
#include <algorithm>
#include <limits>

#include "absl/strings/str_cat.h"
#include "compiler/frontend/onnx/converters.h"

namespace tunefarm::frontend::onnx {
namespace {

using graph::OpKind;
using Ints = std::vector<int64_t>;

// The per-axis attributes of the 2-D form: 1-D ones get a leading height axis (stride 1,
// dilation 1, no padding).
struct Window {
  Ints kernel, strides, dilations, output_padding;
  Ints pads;  // [h_begin, w_begin, h_end, w_end], as the spec gives or derives them
};

absl::StatusOr<Window> ReadTransposeWindow(ImportContext& ctx, const NodeProto& node,
                                           const graph::TensorType& x, const graph::TensorType& w,
                                           int64_t group) {
  const int spatial = static_cast<int>(x.rank()) - 2;
  auto lift = [&](Ints v, int64_t lead) {
    if (spatial == 1) v.insert(v.begin(), lead);
    return v;
  };
  absl::StatusOr<Ints> strides = ctx.AttrInts(node, "strides", Ints(spatial, 1));
  absl::StatusOr<Ints> dilations = ctx.AttrInts(node, "dilations", Ints(spatial, 1));
  absl::StatusOr<Ints> output_padding = ctx.AttrInts(node, "output_padding", Ints(spatial, 0));
  absl::StatusOr<Ints> pads = ctx.AttrInts(node, "pads", Ints(2 * spatial, 0));
  absl::StatusOr<Ints> output_shape = ctx.AttrInts(node, "output_shape", {});
  absl::StatusOr<std::string> auto_pad = ctx.AttrString(node, "auto_pad", "NOTSET");
  for (const absl::Status& s : {strides.status(), dilations.status(), output_padding.status(),
                                pads.status(), output_shape.status(), auto_pad.status()}) {
    if (!s.ok()) return s;
  }
  Ints kernel(w.shape.begin() + 2, w.shape.end());
  absl::StatusOr<Ints> kernel_attr = ctx.AttrInts(node, "kernel_shape", kernel);
  if (!kernel_attr.ok()) return kernel_attr.status();
  if (*kernel_attr != kernel) return ctx.Error(node, "kernel_shape does not match the weight");
  if (static_cast<int>(strides->size()) != spatial ||
      static_cast<int>(dilations->size()) != spatial ||
      static_cast<int>(output_padding->size()) != spatial ||
      static_cast<int>(pads->size()) != 2 * spatial) {
    return ctx.Error(node, absl::StrCat("strides, dilations and output_padding need ", spatial,
                                        " values and pads ", 2 * spatial));
  }
  if (x.shape[1] != w.shape[0] || w.shape[0] % group != 0) {
    return ctx.Error(node, absl::StrCat("the weight ", w.ToString(), " does not take the input ",
                                        x.ToString(), " in ", group, " groups"));
  }
  for (int d = 0; d < spatial; ++d) {
    const int64_t s = (*strides)[d], dl = (*dilations)[d], op = (*output_padding)[d];
    if (s < 1 || s > 64 || dl < 1 || dl > 64 || kernel[d] < 1) {
      return ctx.Error(node, "strides, dilations and the kernel must be positive (at most 64)");
    }
    if (op < 0 || op >= std::max(s, dl)) {
      return ctx.Error(node, "output_padding must be below the stride or the dilation");
    }
  }
  // Derived pads: from output_shape or auto_pad, as the spec's equations give them.
  Ints wanted;
  if (!output_shape->empty()) {
    wanted.assign(output_shape->end() - std::min<size_t>(spatial, output_shape->size()),
                  output_shape->end());
    if (static_cast<int>(wanted.size()) != spatial) {
      return ctx.Error(node, "output_shape must give each spatial size");
    }
  } else if (*auto_pad == "SAME_UPPER" || *auto_pad == "SAME_LOWER") {
    for (int d = 0; d < spatial; ++d) wanted.push_back(x.shape[2 + d] * (*strides)[d]);
  } else if (*auto_pad == "VALID") {
    pads->assign(2 * spatial, 0);
  } else if (*auto_pad != "NOTSET") {
    return ctx.Error(node, "unknown auto_pad '" + *auto_pad + "'");
  }
  if (!wanted.empty()) {
    for (int d = 0; d < spatial; ++d) {
      const int64_t total = (*strides)[d] * (x.shape[2 + d] - 1) + (*output_padding)[d] +
                            (kernel[d] - 1) * (*dilations)[d] + 1 - wanted[d];
      // As ONNX's reference computes it: half rounded down (a negative total, which lengthens
      // the output, too); SAME_UPPER puts the smaller half first, SAME_LOWER and an explicit
      // output_shape the larger.
      const int64_t half = total >= 0 ? total / 2 : -((1 - total) / 2);
      const bool upper = *auto_pad == "SAME_UPPER";
      (*pads)[d] = upper ? half : total - half;
      (*pads)[d + spatial] = upper ? total - half : half;
    }
  }
  Window win;
  win.kernel = lift(kernel, 1);
  win.strides = lift(*strides, 1);
  win.dilations = lift(*dilations, 1);
  win.output_padding = lift(*output_padding, 0);
  if (spatial == 1) {
    win.pads = {0, (*pads)[0], 0, (*pads)[1]};
  } else {
    win.pads = *pads;
  }
  for (int d = 0; d < 2; ++d) {
    const int64_t in = spatial == 1 && d == 0 ? 1 : x.shape[2 + d - (spatial == 1 ? 1 : 0)];
    const int64_t out = win.strides[d] * (in - 1) + win.output_padding[d] +
                        (win.kernel[d] - 1) * win.dilations[d] + 1 - win.pads[d] - win.pads[d + 2];
    if (out < 1) return ctx.Error(node, "the pads leave no output");
  }
  return win;
}

// The convolution's weight of a constant ConvTranspose weight `ws` ([Cin, Cout/g, kh, kw], 1-D
// ones lifted to 2-D), as a new constant; NotFound when the weight is not a float32 constant.
absl::StatusOr<graph::ValueId> ConstantConvWeight(ImportContext& ctx, const NodeProto& node,
                                                  const Ints& ws, int64_t g) {
  const runtime::NDArray* w = ctx.ConstantInput(node, 1);
  if (w == nullptr || w->dtype().code != kDLFloat || w->dtype().bits != 32) {
    return absl::NotFoundError("not a float32 constant");
  }
  const int64_t cin = ws[0], cog = ws[1], kh = ws[2], kw = ws[3], cig = cin / g;
  absl::StatusOr<runtime::NDArray> out =
      runtime::NDArray::Empty({g * cog, cig, kh, kw}, w->dtype());
  if (!out.ok()) return out.status();
  const float* from = static_cast<const float*>(w->data());
  float* to = static_cast<float*>(out->data());
  for (int64_t gi = 0; gi < g; ++gi) {
    for (int64_t o = 0; o < cog; ++o) {
      for (int64_t i = 0; i < cig; ++i) {
        for (int64_t y = 0; y < kh; ++y) {
          for (int64_t x = 0; x < kw; ++x) {
            to[(((gi * cog + o) * cig + i) * kh + y) * kw + x] =
                from[(((gi * cig + i) * cog + o) * kh + (kh - 1 - y)) * kw + (kw - 1 - x)];
          }
        }
      }
    }
  }
  return ctx.graph().AddConstant(ImportContext::PartName(node, "/conv_weight"), *std::move(out));
}

// The same rearrangement as graph ops, for a weight that is not a constant.
absl::StatusOr<graph::ValueId> ConvWeightInGraph(ImportContext& ctx, const NodeProto& node,
                                                 graph::ValueId weight, const Ints& ws, int64_t g) {
  const int64_t cig = ws[0] / g, cog = ws[1];
  absl::StatusOr<graph::ValueId> grouped =
      ctx.EmitInner(node, OpKind::kReshape, "/weight_groups",
                    {{"shape", Ints{g, cig, cog, ws[2], ws[3]}}}, {weight});
  if (!grouped.ok()) return grouped.status();
  absl::StatusOr<graph::ValueId> swapped = ctx.EmitInner(
      node, OpKind::kTranspose, "/weight_swapped", {{"perm", Ints{0, 2, 1, 3, 4}}}, {*grouped});
  if (!swapped.ok()) return swapped.status();
  absl::StatusOr<graph::ValueId> as_conv =
      ctx.EmitInner(node, OpKind::kReshape, "/weight_as_conv",
                    {{"shape", Ints{g * cog, cig, ws[2], ws[3]}}}, {*swapped});
  if (!as_conv.ok()) return as_conv.status();
  constexpr int64_t kBeforeStart = std::numeric_limits<int64_t>::min();
  absl::StatusOr<graph::ValueId> flipped =
      ctx.EmitInner(node, OpKind::kSlice, "/weight_flipped",
                    {{"starts", Ints{-1, -1}},
                     {"ends", Ints{kBeforeStart, kBeforeStart}},
                     {"axes", Ints{2, 3}},
                     {"steps", Ints{-1, -1}}},
                    {*as_conv});
  if (!flipped.ok()) return flipped.status();
  return flipped;
}

absl::Status ConvTranspose(ImportContext& ctx, const NodeProto& node) {
  absl::StatusOr<graph::TensorType> xt = ctx.InputType(node, 0);
  absl::StatusOr<graph::TensorType> wt = ctx.InputType(node, 1);
  absl::StatusOr<int64_t> group = ctx.AttrInt(node, "group", 1);
  absl::StatusOr<graph::ValueId> x = ctx.Input(node, 0);
  absl::StatusOr<graph::ValueId> w = ctx.Input(node, 1);
  for (const absl::Status& s : {xt.status(), wt.status(), group.status(), x.status(), w.status()}) {
    if (!s.ok()) return s;
  }
  const int64_t rank = xt->rank();
  if (rank != 3 && rank != 4) {
    return absl::UnimplementedError(absl::StrCat("ConvTranspose node '", node.name(),
                                                 "': only 1-D and 2-D inputs are supported, got ",
                                                 xt->ToString()));
  }
  if (wt->rank() != rank) {
    return ctx.Error(
        node, "the weight " + wt->ToString() + " does not match the input " + xt->ToString());
  }
  if (*group < 1) return ctx.Error(node, "group must be positive");
  absl::StatusOr<Window> win = ReadTransposeWindow(ctx, node, *xt, *wt, *group);
  if (!win.ok()) return win.status();
  graph::ValueId data = *x, weight = *w;
  if (rank == 3) {
    absl::StatusOr<graph::ValueId> x2 =
        ctx.EmitInner(node, OpKind::kUnsqueeze, "/data_2d", {{"axes", Ints{2}}}, {data});
    absl::StatusOr<graph::ValueId> w2 =
        ctx.EmitInner(node, OpKind::kUnsqueeze, "/weight_2d", {{"axes", Ints{2}}}, {weight});
    if (!x2.ok()) return x2.status();
    if (!w2.ok()) return w2.status();
    data = *x2;
    weight = *w2;
  }
  const Ints xs = rank == 3 ? Ints{xt->shape[0], xt->shape[1], 1, xt->shape[2]} : xt->shape;
  const Ints ws = rank == 3 ? Ints{wt->shape[0], wt->shape[1], 1, wt->shape[2]} : wt->shape;
  const int64_t g = *group;
  const int64_t sh = win->strides[0], sw = win->strides[1];

  // The input spread out: [N, C, H, W] -> [N, C, H, 1, W, 1] padded to [N, C, H, sh, W, sw] ->
  // [N, C, H*sh, W*sw], each pixel followed by its zeros (the last ones are trimmed below).
  if (sh > 1 || sw > 1) {
    absl::StatusOr<graph::ValueId> lifted =
        ctx.EmitInner(node, OpKind::kUnsqueeze, "/spread_axes", {{"axes", Ints{3, 5}}}, {data});
    if (!lifted.ok()) return lifted.status();
    absl::StatusOr<graph::ValueId> zeros =
        ctx.EmitInner(node, OpKind::kPad, "/spread_zeros",
                      {{"pads", Ints{0, 0, 0, 0, 0, 0, 0, 0, 0, sh - 1, 0, sw - 1}}}, {*lifted});
    if (!zeros.ok()) return zeros.status();
    absl::StatusOr<graph::ValueId> spread =
        ctx.EmitInner(node, OpKind::kReshape, "/spread",
                      {{"shape", Ints{xs[0], xs[1], xs[2] * sh, xs[3] * sw}}}, {*zeros});
    if (!spread.ok()) return spread.status();
    data = *spread;
  }
  // Each side padded by the dilated kernel's extent less the pad; the spread's trailing zeros
  // count toward the end. Positive padding is the convolution's own, negative crops first.
  Ints conv_pads(4), crop(8, 0);
  bool cropped = false;
  for (int d = 0; d < 2; ++d) {
    const int64_t extent = (win->kernel[d] - 1) * win->dilations[d];
    const int64_t begin = extent - win->pads[d];
    const int64_t end = extent - win->pads[d + 2] + win->output_padding[d] - (win->strides[d] - 1);
    conv_pads[d] = std::max<int64_t>(begin, 0);
    conv_pads[d + 2] = std::max<int64_t>(end, 0);
    crop[2 + d] = std::min<int64_t>(begin, 0);
    crop[6 + d] = std::min<int64_t>(end, 0);
    cropped = cropped || begin < 0 || end < 0;
  }
  if (cropped) {
    absl::StatusOr<graph::ValueId> c =
        ctx.EmitInner(node, OpKind::kPad, "/crop", {{"pads", crop}}, {data});
    if (!c.ok()) return c.status();
    data = *c;
  }
  // The weight [Cin, Cout/g, kh, kw] as a convolution's [Cout, Cin/g, kh, kw], flipped in space:
  // computed here when it is a constant, so that the layout pass sees the constant weight it
  // blocks for the tuned kernels (constant folding runs after it).
  absl::StatusOr<graph::ValueId> flipped = ConstantConvWeight(ctx, node, ws, g);
  if (!flipped.ok() && flipped.status().code() != absl::StatusCode::kNotFound) {
    return flipped.status();
  }
  if (!flipped.ok()) flipped = ConvWeightInGraph(ctx, node, weight, ws, g);
  if (!flipped.ok()) return flipped.status();
  std::vector<graph::ValueId> inputs = {data, *flipped};
  if (ctx.HasInput(node, 2)) {
    absl::StatusOr<graph::ValueId> bias = ctx.Input(node, 2);
    if (!bias.ok()) return bias.status();
    inputs.push_back(*bias);
  }
  graph::Attributes conv{
      {"strides", Ints{1, 1}}, {"pads", conv_pads}, {"dilations", win->dilations}, {"groups", g}};
  if (rank == 4) return ctx.Emit(node, OpKind::kConv2d, std::move(conv), std::move(inputs));
  absl::StatusOr<graph::ValueId> y =
      ctx.EmitInner(node, OpKind::kConv2d, "/conv_2d", std::move(conv), std::move(inputs));
  if (!y.ok()) return y.status();
  return ctx.Emit(node, OpKind::kSqueeze, {{"axes", Ints{2}}}, {*y});
}

constexpr OnnxConverter kConvTransposeConverters[] = {
    {"ConvTranspose", &ConvTranspose},
};

}  // namespace

std::span<const OnnxConverter> ConvTransposeConverters() { return kConvTransposeConverters; }

}  // namespace tunefarm::frontend::onnx
