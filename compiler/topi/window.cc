#include "compiler/topi/window.h"

#include "absl/strings/str_cat.h"

namespace tunefarm::topi {

Window2d Window2d::Make(int64_t stride, int64_t pad, int64_t dilation) {
  return Window2d{stride, stride, pad, pad, pad, pad, dilation, dilation};
}

std::string Window2d::ToString() const {
  return absl::StrCat("stride ", stride_h, "x", stride_w, ", padding ", pad_top, ",", pad_left, ",",
                      pad_bottom, ",", pad_right, " (top, left, bottom, right), dilation ",
                      dilation_h, "x", dilation_w);
}

absl::StatusOr<WindowOutput> SlideWindow(const std::string& op, const std::string& shapes,
                                         const Window2d& window, int64_t h, int64_t w, int64_t kh,
                                         int64_t kw) {
  const Window2d& p = window;
  if (p.stride_h < 1 || p.stride_w < 1 || p.dilation_h < 1 || p.dilation_w < 1 || p.pad_top < 0 ||
      p.pad_left < 0 || p.pad_bottom < 0 || p.pad_right < 0) {
    return absl::InvalidArgumentError(absl::StrCat(op, " (", shapes, "): invalid window ",
                                                   p.ToString(),
                                                   "; strides and dilations must be >= 1 and "
                                                   "padding >= 0"));
  }
  const int64_t padded_h = h + p.pad_top + p.pad_bottom, padded_w = w + p.pad_left + p.pad_right;
  const int64_t span_h = (kh - 1) * p.dilation_h + 1, span_w = (kw - 1) * p.dilation_w + 1;
  if (span_h > padded_h || span_w > padded_w) {
    return absl::InvalidArgumentError(
        absl::StrCat(op, " (", shapes, "): the ", kh, "x", kw, " window, ", span_h, "x", span_w,
                     " with dilation, is larger than the padded input ", padded_h, "x", padded_w,
                     " (input ", h, "x", w, ", ", p.ToString(), ")"));
  }
  return WindowOutput{(padded_h - span_h) / p.stride_h + 1, (padded_w - span_w) / p.stride_w + 1};
}

}  // namespace tunefarm::topi
