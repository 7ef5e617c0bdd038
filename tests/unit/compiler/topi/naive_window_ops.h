// Naive references for the sliding-window operators (conv2d, depthwise, pooling) in NCHW: plain
// loops in double with padding as bounds checks, sharing nothing with the computes they check.
#pragma once

#include <algorithm>
#include <cstdint>
#include <limits>
#include <vector>

#include "compiler/topi/window.h"

namespace tunefarm::topi::testing {

struct Nchw {
  int64_t n, c, h, w;
  int64_t size() const { return n * c * h * w; }
};

// Output extent of a window of `taps` with `dilation` over `extent` padded by lo + hi.
inline int64_t OutExtent(int64_t extent, int64_t lo, int64_t hi, int64_t taps, int64_t stride,
                         int64_t dilation) {
  return (extent + lo + hi - (taps - 1) * dilation - 1) / stride + 1;
}

// The value at padded position (y, x) of channel plane `plane`, or `fill` outside the input.
inline double At(const float* plane, const Nchw& s, const Window2d& p, int64_t y, int64_t x,
                 double fill, bool* inside = nullptr) {
  int64_t iy = y - p.pad_top, ix = x - p.pad_left;
  bool in = iy >= 0 && iy < s.h && ix >= 0 && ix < s.w;
  if (inside) *inside = in;
  return in ? plane[iy * s.w + ix] : fill;
}

// out[n][o][y][x] = sum_{c,ky,kx} data * kernel[o][c/groups...]; `group_in` input channels per
// group (C for a plain conv, 1 for depthwise) and `mult` outputs per group input channel.
inline std::vector<float> NaiveConv2d(const float* data, const Nchw& ds, const float* kernel,
                                      int64_t out_channels, int64_t kh, int64_t kw,
                                      const Window2d& p, bool depthwise) {
  const int64_t oh = OutExtent(ds.h, p.pad_top, p.pad_bottom, kh, p.stride_h, p.dilation_h);
  const int64_t ow = OutExtent(ds.w, p.pad_left, p.pad_right, kw, p.stride_w, p.dilation_w);
  const int64_t mult = depthwise ? out_channels / ds.c : 1;
  std::vector<float> out(ds.n * out_channels * oh * ow);
  for (int64_t n = 0; n < ds.n; ++n) {
    for (int64_t o = 0; o < out_channels; ++o) {
      for (int64_t y = 0; y < oh; ++y) {
        for (int64_t x = 0; x < ow; ++x) {
          double acc = 0;
          const int64_t c_begin = depthwise ? o / mult : 0;
          const int64_t c_end = depthwise ? c_begin + 1 : ds.c;
          for (int64_t c = c_begin; c < c_end; ++c) {
            const float* plane = data + (n * ds.c + c) * ds.h * ds.w;
            for (int64_t ky = 0; ky < kh; ++ky) {
              for (int64_t kx = 0; kx < kw; ++kx) {
                double v = At(plane, ds, p, y * p.stride_h + ky * p.dilation_h,
                              x * p.stride_w + kx * p.dilation_w, 0.0);
                // Plain: kernel[o][c][ky][kx]; depthwise: kernel[c][o % mult][ky][kx].
                int64_t ki = depthwise ? ((c * mult + o % mult) * kh + ky) * kw + kx
                                       : ((o * ds.c + c) * kh + ky) * kw + kx;
                acc += v * kernel[ki];
              }
            }
          }
          out[((n * out_channels + o) * oh + y) * ow + x] = static_cast<float>(acc);
        }
      }
    }
  }
  return out;
}

inline std::vector<float> NaivePool2d(const float* data, const Nchw& ds, int64_t kh, int64_t kw,
                                      const Window2d& p, bool is_max, bool count_include_pad) {
  const int64_t oh = OutExtent(ds.h, p.pad_top, p.pad_bottom, kh, p.stride_h, p.dilation_h);
  const int64_t ow = OutExtent(ds.w, p.pad_left, p.pad_right, kw, p.stride_w, p.dilation_w);
  std::vector<float> out(ds.n * ds.c * oh * ow);
  for (int64_t nc = 0; nc < ds.n * ds.c; ++nc) {
    const float* plane = data + nc * ds.h * ds.w;
    for (int64_t y = 0; y < oh; ++y) {
      for (int64_t x = 0; x < ow; ++x) {
        double best = -std::numeric_limits<double>::infinity(), sum = 0;
        int64_t count = 0;
        for (int64_t ky = 0; ky < kh; ++ky) {
          for (int64_t kx = 0; kx < kw; ++kx) {
            bool inside = false;
            double v = At(plane, ds, p, y * p.stride_h + ky * p.dilation_h,
                          x * p.stride_w + kx * p.dilation_w, 0.0, &inside);
            if (inside) {
              best = std::max(best, v);
              ++count;
            }
            sum += v;
          }
        }
        double avg = sum / static_cast<double>(count_include_pad ? kh * kw : count);
        out[(nc * oh + y) * ow + x] = static_cast<float>(is_max ? best : avg);
      }
    }
  }
  return out;
}

}  // namespace tunefarm::topi::testing
