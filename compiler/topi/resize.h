// Resizing by interpolation (ONNX Resize, PyTorch's interpolate/upsample): nearest, linear
// (bilinear, trilinear: every resized axis) and cubic, with ONNX's coordinate transformations.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "compiler/te/tensor.h"

namespace tunefarm::topi {

enum class ResizeMode : uint8_t { kNearest, kLinear, kCubic };

// How an output coordinate maps to an input one (ONNX's coordinate_transformation_mode).
enum class ResizeCoordinates : uint8_t {
  kHalfPixel,         // (x + 0.5) / scale - 0.5
  kPytorchHalfPixel,  // the same, but 0 where the output has one element
  kAlignCorners,      // x * (in - 1) / (out - 1)
  kAsymmetric,        // x / scale
  kTfHalfPixelForNn,  // (x + 0.5) / scale
};

// How nearest mode rounds a fractional input coordinate.
enum class ResizeRounding : uint8_t { kRoundPreferFloor, kRoundPreferCeil, kFloor, kCeil };

std::optional<ResizeMode> ResizeModeFromName(std::string_view name);
std::optional<ResizeCoordinates> ResizeCoordinatesFromName(std::string_view name);
std::optional<ResizeRounding> ResizeRoundingFromName(std::string_view name);

struct ResizeParams {
  std::vector<int64_t> sizes;  // the output shape, one entry per axis of x
  std::vector<double> scales;  // out / in per axis as given (ONNX scales), or empty: from sizes
  ResizeMode mode = ResizeMode::kNearest;
  ResizeCoordinates coordinates = ResizeCoordinates::kHalfPixel;
  ResizeRounding rounding = ResizeRounding::kRoundPreferFloor;
  double cubic_a = -0.75;  // Keys' cubic coefficient
  bool exclude_outside =
      false;  // cubic: taps outside the input get weight 0, the rest renormalized
};

// Neighbours beyond the input's edge read the edge (ONNX's reference pads by replication).
// Errors: a symbolic or empty shape, sizes of another rank, a float function of integers.
absl::StatusOr<te::Tensor> ResizeCompute(const te::Tensor& x, const ResizeParams& params);

}  // namespace tunefarm::topi
