// The int8 blocked conv2d: on every backend, exactly the naive int32 convolution of uint8 data
// (padding filled with the data's zero point) and an int8 kernel, for strides, paddings, channel
// blocks, lane counts and register tiles that do not divide the output; bad layouts are refused.
#include "compiler/topi/conv2d_int8.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <random>

#include "tests/unit/compiler/topi/topi_harness.h"

namespace tunefarm::topi {
namespace {

using testing::BackendCase;
using ::testing::HasSubstr;

struct ConvCase {
  int64_t n, c, h, w, o, k, stride, pad, ic_block, lanes, pad_value, reg_w;
};

runtime::NDArray Bytes(const std::vector<int64_t>& shape, const char* dtype,
                       const std::vector<uint8_t>& v) {
  runtime::NDArray a = *runtime::NDArray::Empty(shape, *runtime::ParseDataType(dtype));
  std::memcpy(a.data(), v.data(), v.size());
  return a;
}

void ExpectExact(const BackendCase& backend, const ConvCase& s) {
  std::mt19937_64 rng(static_cast<uint64_t>(s.c * 131 + s.o));
  std::vector<uint8_t> x(static_cast<size_t>(s.n * s.c * s.h * s.w));
  std::vector<int8_t> w(static_cast<size_t>(s.o * s.c * s.k * s.k));
  for (uint8_t& v : x) v = static_cast<uint8_t>(rng());
  for (int8_t& v : w) v = static_cast<int8_t>(rng());
  x[0] = 255;
  w[0] = -128;
  const int64_t cb = (s.c + s.ic_block - 1) / s.ic_block, ob = (s.o + s.lanes - 1) / s.lanes;
  // NCHW to NCHW[c], channels past C filled like padding would be (they meet zero weights).
  std::vector<uint8_t> blocked(static_cast<size_t>(s.n * cb * s.h * s.w * s.ic_block), 0);
  for (int64_t b = 0; b < s.n; ++b) {
    for (int64_t ch = 0; ch < s.c; ++ch) {
      for (int64_t i = 0; i < s.h * s.w; ++i) {
        blocked[(((b * cb + ch / s.ic_block) * s.h * s.w) + i) * s.ic_block + ch % s.ic_block] =
            x[(b * s.c + ch) * s.h * s.w + i];
      }
    }
  }
  const std::vector<int8_t> packed =
      PackConv2dInt8Kernel(w.data(), s.o, s.c, s.k, s.k, s.ic_block, s.lanes);
  auto i32 = [](int64_t v) { return ir::Expr(static_cast<int>(v)); };
  te::Tensor data = te::placeholder({i32(s.n), i32(cb), i32(s.h), i32(s.w), i32(s.ic_block)},
                                    ir::DataType::UInt(8), "data");
  te::Tensor kernel =
      te::placeholder({i32(ob), i32(cb), i32(s.k), i32(s.k), i32(s.ic_block / 4), i32(s.lanes), 4},
                      ir::DataType::Int(8), "kernel");
  absl::StatusOr<Conv2dInt8Tensors> t =
      Conv2dInt8Compute(data, kernel, Window2d::Make(s.stride, s.pad), s.pad_value);
  ASSERT_TRUE(t.ok()) << t.status();
  absl::StatusOr<ScheduledOp> op = ScheduleConv2dInt8({.reg_w = s.reg_w}, *t);
  ASSERT_TRUE(op.ok()) << op.status();
  const int64_t oh = (s.h + 2 * s.pad - s.k) / s.stride + 1;
  const int64_t ow = (s.w + 2 * s.pad - s.k) / s.stride + 1;
  runtime::NDArray nd = Bytes({s.n, cb, s.h, s.w, s.ic_block}, "uint8", blocked);
  runtime::NDArray nk = Bytes({ob, cb, s.k, s.k, s.ic_block / 4, s.lanes, 4}, "int8",
                              std::vector<uint8_t>(packed.begin(), packed.end()));
  runtime::NDArray out =
      *runtime::NDArray::Empty({s.n, ob, oh, ow, s.lanes}, *runtime::ParseDataType("int32"));
  std::fill_n(static_cast<int32_t*>(out.data()), out.NumElements(), 0x5a5a5a5a);
  absl::Status st = testing::RunOn(backend, *op, {&nd, &nk, &out});
  ASSERT_TRUE(st.ok()) << st;
  const auto* got = static_cast<const int32_t*>(out.data());
  for (int64_t b = 0; b < s.n; ++b) {
    for (int64_t oc = 0; oc < s.o; ++oc) {
      for (int64_t y = 0; y < oh; ++y) {
        for (int64_t xx = 0; xx < ow; ++xx) {
          int64_t want = 0;
          for (int64_t ic = 0; ic < s.c; ++ic) {
            for (int64_t ky = 0; ky < s.k; ++ky) {
              for (int64_t kx = 0; kx < s.k; ++kx) {
                const int64_t iy = y * s.stride + ky - s.pad, ix = xx * s.stride + kx - s.pad;
                const bool inside = iy >= 0 && iy < s.h && ix >= 0 && ix < s.w;
                const int64_t v = inside ? x[((b * s.c + ic) * s.h + iy) * s.w + ix] : s.pad_value;
                want += v * w[((oc * s.c + ic) * s.k + ky) * s.k + kx];
              }
            }
          }
          const int64_t at =
              (((b * ob + oc / s.lanes) * oh + y) * ow + xx) * s.lanes + oc % s.lanes;
          ASSERT_EQ(got[at], static_cast<int32_t>(want))
              << "out[" << b << ", " << oc << ", " << y << ", " << xx << "]";
        }
      }
    }
  }
}

class Conv2dInt8Test : public ::testing::TestWithParam<BackendCase> {};

TEST_P(Conv2dInt8Test, MatchesTheNaiveConvolutionExactly) {
  const std::vector<ConvCase> cases = {
      {1, 8, 7, 9, 32, 3, 1, 1, 8, 16, 0, 4},    // 3x3, a row of 9 in tiles of 4
      {2, 4, 6, 6, 16, 1, 2, 0, 4, 16, 0, 8},    // 1x1 stride 2, a tile wider than the row
      {1, 16, 5, 5, 8, 3, 2, 1, 16, 8, 37, 2},   // stride 2, padding is the zero point 37
      {1, 12, 4, 4, 18, 3, 1, 1, 8, 4, 128, 3},  // C and O not whole blocks, 4 lanes
  };
  for (const ConvCase& c : cases) {
    ExpectExact(GetParam(), c);
    if (HasFatalFailure()) return;
  }
}

INSTANTIATE_TEST_SUITE_P(Backends, Conv2dInt8Test, ::testing::ValuesIn(testing::AllBackends()),
                         testing::BackendName);

TEST(Conv2dInt8ComputeTest, LayoutsThatDoNotFitAreRefused) {
  te::Tensor data = te::placeholder({1, 2, 5, 5, 6}, ir::DataType::UInt(8), "data");
  te::Tensor kernel = te::placeholder({1, 2, 3, 3, 1, 16, 4}, ir::DataType::Int(8), "kernel");
  EXPECT_THAT(Conv2dInt8Compute(data, kernel, Window2d::Make(1, 1)).status().message(),
              HasSubstr("must be [O/L][C/c][KH][KW][c/4][L][4]"));
  te::Tensor fdata = te::placeholder({1, 2, 5, 5, 4}, ir::DataType::Float(32), "data");
  EXPECT_THAT(Conv2dInt8Compute(fdata, kernel, Window2d::Make(1, 1)).status().message(),
              HasSubstr("data must be uint8"));
}

}  // namespace
}  // namespace tunefarm::topi
