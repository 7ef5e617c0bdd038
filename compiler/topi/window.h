// Sliding-window geometry shared by conv2d, depthwise conv2d and pooling: stride, padding and
// dilation, the output extent they give, and the shape errors that name the op and the shapes.
#pragma once

#include <cstdint>
#include <string>

#include "absl/status/statusor.h"

namespace tunefarm::topi {

struct Window2d {
  int64_t stride_h = 1, stride_w = 1;
  int64_t pad_top = 0, pad_left = 0, pad_bottom = 0, pad_right = 0;
  int64_t dilation_h = 1, dilation_w = 1;

  // Symmetric padding and equal strides, the common case.
  static Window2d Make(int64_t stride, int64_t pad, int64_t dilation = 1);
  bool has_padding() const { return pad_top || pad_left || pad_bottom || pad_right; }
  std::string ToString() const;
};

struct WindowOutput {
  int64_t h, w;
};

// The output extents of a kh x kw window sliding over an h x w input. Errors (InvalidArgument,
// naming `op` and `shapes`, e.g. "data 1x3x4x4, kernel 8x3x5x5"): a stride or dilation below 1,
// negative padding, or a dilated window larger than the padded input.
absl::StatusOr<WindowOutput> SlideWindow(const std::string& op, const std::string& shapes,
                                         const Window2d& window, int64_t h, int64_t w, int64_t kh,
                                         int64_t kw);

}  // namespace tunefarm::topi
