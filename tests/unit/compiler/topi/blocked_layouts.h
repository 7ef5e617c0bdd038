// The blocked NCHW[c]c layouts made in plain C++, independently of layout_transform, for the
// blocked conv tests: data and OIHW kernels into blocks (zeros past the real channels).
#pragma once

#include "runtime/ndarray.h"
#include "tests/unit/compiler/topi/naive_window_ops.h"
#include "tests/unit/compiler/topi/topi_harness.h"

namespace tunefarm::topi::testing {

// data[n][c][h][w] -> [n][c/ib][h][w][ib], zeros past C.
inline runtime::NDArray BlockData(const runtime::NDArray& data, const Nchw& d, int64_t ib) {
  const int64_t cb = (d.c + ib - 1) / ib;
  runtime::NDArray out = *runtime::NDArray::Empty({d.n, cb, d.h, d.w, ib}, data.dtype());
  float* o = static_cast<float*>(out.data());
  for (int64_t n = 0; n < d.n; ++n)
    for (int64_t c = 0; c < cb * ib; ++c)
      for (int64_t y = 0; y < d.h; ++y)
        for (int64_t x = 0; x < d.w; ++x)
          o[(((n * cb + c / ib) * d.h + y) * d.w + x) * ib + c % ib] =
              c < d.c ? Data(data)[((n * d.c + c) * d.h + y) * d.w + x] : 0.0f;
  return out;
}

// kernel[o][c][kh][kw] -> [o/ob][c/ib][kh][kw][ib][ob], zeros past O and C.
inline runtime::NDArray BlockKernel(const runtime::NDArray& k, int64_t oc, int64_t ic, int64_t kh,
                                    int64_t kw, int64_t ib, int64_t ob) {
  const int64_t cbs = (ic + ib - 1) / ib, obs = (oc + ob - 1) / ob;
  runtime::NDArray out = *runtime::NDArray::Empty({obs, cbs, kh, kw, ib, ob}, k.dtype());
  float* o = static_cast<float*>(out.data());
  for (int64_t f = 0; f < obs * ob; ++f)
    for (int64_t c = 0; c < cbs * ib; ++c)
      for (int64_t y = 0; y < kh; ++y)
        for (int64_t x = 0; x < kw; ++x)
          o[((((f / ob * cbs + c / ib) * kh + y) * kw + x) * ib + c % ib) * ob + f % ob] =
              f < oc && c < ic ? Data(k)[((f * ic + c) * kh + y) * kw + x] : 0.0f;
  return out;
}

// The channels that exist of a blocked output: out[n][o/ob][y][x][o%ob] -> [n][o][y][x].
inline runtime::NDArray UnblockOutput(const runtime::NDArray& out, int64_t channels) {
  const std::vector<int64_t>& s = out.shape();
  const int64_t batch = s[0], obs = s[1], oh = s[2], ow = s[3], ob = s[4];
  runtime::NDArray got = *runtime::NDArray::Empty({batch, channels, oh, ow}, out.dtype());
  float* g = static_cast<float*>(got.data());
  for (int64_t n = 0; n < batch; ++n)
    for (int64_t o = 0; o < channels; ++o)
      for (int64_t i = 0; i < oh * ow; ++i)
        g[(n * channels + o) * oh * ow + i] =
            Data(out)[((n * obs + o / ob) * oh * ow + i) * ob + o % ob];
  return got;
}

}  // namespace tunefarm::topi::testing
