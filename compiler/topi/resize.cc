#include "compiler/topi/resize.h"

#include <string>
#include <utility>

#include "absl/strings/str_cat.h"
#include "compiler/ir/op.h"
#include "compiler/topi/static_shape.h"

namespace tunefarm::topi {
namespace {

using ir::Expr;

const ir::DataType kF64 = ir::DataType::Float(64);

// The input coordinate (float64, as ONNX's reference computes it) of output index `i` on one axis.
Expr SourceCoordinate(const ResizeParams& p, Expr i, int64_t in, int64_t out, double scale) {
  Expr x = ir::Cast(kF64, std::move(i));
  auto f = [](double v) { return ir::MakeConst(kF64, v); };
  switch (p.coordinates) {
    case ResizeCoordinates::kHalfPixel:
      return (x + f(0.5)) * f(1.0 / scale) - f(0.5);
    case ResizeCoordinates::kPytorchHalfPixel:
      return out > 1 ? (x + f(0.5)) * f(1.0 / scale) - f(0.5) : f(0.0);
    case ResizeCoordinates::kAlignCorners: {
      // ONNX's output length here is in * scale, not floored.
      const double length = static_cast<double>(in) * scale;
      return out > 1 ? x * f(static_cast<double>(in - 1) / (length - 1)) : f(0.0);
    }
    case ResizeCoordinates::kAsymmetric:
      return x * f(1.0 / scale);
    case ResizeCoordinates::kTfHalfPixelForNn:
      return (x + f(0.5)) * f(1.0 / scale);
  }
  return x;
}

Expr ClampIndex(Expr k, int64_t in) { return ir::Min(ir::Max(std::move(k), Imm(0)), Imm(in - 1)); }

Expr Floor(Expr v) { return ir::Call(ir::Intrinsic::kFloor, {std::move(v)}); }
Expr Ceil(Expr v) { return ir::Call(ir::Intrinsic::kCeil, {std::move(v)}); }
Expr ToIndex(Expr v) { return ir::Cast(ir::DataType::Int(32), std::move(v)); }

// One tap of an axis: the input index it reads and its weight (in x's type).
using Tap = std::pair<Expr, Expr>;

std::vector<Tap> Taps(const ResizeParams& p, Expr coord, int64_t in, ir::DataType t) {
  if (p.mode == ResizeMode::kNearest) {
    Expr k;
    switch (p.rounding) {
      case ResizeRounding::kRoundPreferFloor:
        k = Ceil(coord - ir::MakeConst(kF64, 0.5));
        break;
      case ResizeRounding::kRoundPreferCeil:
        k = Floor(coord + ir::MakeConst(kF64, 0.5));
        break;
      case ResizeRounding::kFloor:
        k = Floor(coord);
        break;
      case ResizeRounding::kCeil:
        k = Ceil(coord);
        break;
    }
    return {{ClampIndex(ToIndex(k), in), ir::MakeConst(t, 1.0)}};
  }
  Expr base = Floor(coord);
  Expr frac = ir::Cast(t, coord - base);
  Expr k0 = ToIndex(base);
  auto c = [&](double v) { return ir::MakeConst(t, v); };
  if (p.mode == ResizeMode::kLinear) {
    return {{ClampIndex(k0, in), c(1.0) - frac}, {ClampIndex(k0 + Imm(1), in), frac}};
  }
  // Keys' cubic convolution weights of the taps at k0 - 1 .. k0 + 2.
  const double a = p.cubic_a;
  Expr s0 = frac + c(1.0), s1 = frac, s2 = c(1.0) - frac, s3 = c(2.0) - frac;
  auto outer = [&](Expr s) { return ((c(a) * s - c(5 * a)) * s + c(8 * a)) * s - c(4 * a); };
  auto inner = [&](Expr s) { return ((c(a + 2) * s - c(a + 3)) * s) * s + c(1.0); };
  std::vector<Tap> taps = {{k0 - Imm(1), outer(s0)},
                           {k0, inner(s1)},
                           {k0 + Imm(1), inner(s2)},
                           {k0 + Imm(2), outer(s3)}};
  if (p.exclude_outside) {
    Expr total = c(0.0);
    for (Tap& tap : taps) {
      tap.second = ir::Select(tap.first < Imm(0) || tap.first > Imm(in - 1), c(0.0), tap.second);
      total = total + tap.second;
    }
    for (Tap& tap : taps) tap.second = ir::Div(tap.second, total);
  }
  for (Tap& tap : taps) tap.first = ClampIndex(tap.first, in);
  return taps;
}

}  // namespace

std::optional<ResizeMode> ResizeModeFromName(std::string_view name) {
  if (name == "nearest") return ResizeMode::kNearest;
  if (name == "linear") return ResizeMode::kLinear;
  if (name == "cubic") return ResizeMode::kCubic;
  return std::nullopt;
}

std::optional<ResizeCoordinates> ResizeCoordinatesFromName(std::string_view name) {
  if (name == "half_pixel") return ResizeCoordinates::kHalfPixel;
  if (name == "pytorch_half_pixel") return ResizeCoordinates::kPytorchHalfPixel;
  if (name == "align_corners") return ResizeCoordinates::kAlignCorners;
  if (name == "asymmetric") return ResizeCoordinates::kAsymmetric;
  if (name == "tf_half_pixel_for_nn") return ResizeCoordinates::kTfHalfPixelForNn;
  return std::nullopt;
}

std::optional<ResizeRounding> ResizeRoundingFromName(std::string_view name) {
  if (name == "round_prefer_floor") return ResizeRounding::kRoundPreferFloor;
  if (name == "round_prefer_ceil") return ResizeRounding::kRoundPreferCeil;
  if (name == "floor") return ResizeRounding::kFloor;
  if (name == "ceil") return ResizeRounding::kCeil;
  return std::nullopt;
}

absl::StatusOr<te::Tensor> ResizeCompute(const te::Tensor& x, const ResizeParams& params) {
  absl::StatusOr<std::vector<int64_t>> xs = StaticShape("resize", x);
  if (!xs.ok()) return xs.status();
  const size_t rank = xs->size();
  if (params.sizes.size() != rank || (!params.scales.empty() && params.scales.size() != rank)) {
    return absl::InvalidArgumentError(absl::StrCat("resize: sizes ", ShapeString(params.sizes),
                                                   " must have one entry per axis of ",
                                                   ShapeString(*xs)));
  }
  if (params.mode != ResizeMode::kNearest && !x.dtype().is_float()) {
    return absl::InvalidArgumentError("resize: linear and cubic modes need a float tensor");
  }
  std::vector<Expr> shape;
  std::vector<size_t> resized;
  for (size_t d = 0; d < rank; ++d) {
    if ((*xs)[d] == 0 || params.sizes[d] <= 0) {
      return absl::InvalidArgumentError(absl::StrCat("resize: an empty axis in ", ShapeString(*xs),
                                                     " -> ", ShapeString(params.sizes)));
    }
    shape.push_back(Imm(params.sizes[d]));
    const double scale = params.scales.empty()
                             ? static_cast<double>(params.sizes[d]) / static_cast<double>((*xs)[d])
                             : params.scales[d];
    if (params.sizes[d] != (*xs)[d] || scale != 1.0) resized.push_back(d);
  }
  const ir::DataType t = x.dtype();
  return te::compute(
      shape,
      [&](const std::vector<ir::Var>& i) {
        std::vector<std::vector<Tap>> taps;
        for (size_t d : resized) {
          const double scale = params.scales.empty() ? static_cast<double>(params.sizes[d]) /
                                                           static_cast<double>((*xs)[d])
                                                     : params.scales[d];
          Expr coord = SourceCoordinate(params, i[d], (*xs)[d], params.sizes[d], scale);
          taps.push_back(Taps(params, coord, (*xs)[d], t));
        }
        // Every combination of one tap per resized axis, weighted by the product of weights.
        std::vector<Expr> index(i.begin(), i.end());
        Expr sum;
        std::vector<size_t> pick(resized.size(), 0);
        while (true) {
          Expr weight;
          for (size_t r = 0; r < resized.size(); ++r) {
            index[resized[r]] = taps[r][pick[r]].first;
            weight = weight.defined() ? weight * taps[r][pick[r]].second : taps[r][pick[r]].second;
          }
          Expr term = x(index);
          if (params.mode != ResizeMode::kNearest && weight.defined()) term = weight * term;
          sum = sum.defined() ? sum + term : term;
          size_t r = 0;
          while (r < pick.size() && ++pick[r] == taps[r].size()) pick[r++] = 0;
          if (r == pick.size()) break;
        }
        return sum;
      },
      "resize");
}

}  // namespace tunefarm::topi
