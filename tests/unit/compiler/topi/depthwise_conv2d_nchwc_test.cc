// Depthwise conv2d blocked over channels, with strides, padding, dilation and ragged channel and
// column counts, against a naive loop nest over the blocked arrays, on every backend.
#include "compiler/topi/depthwise_conv2d_nchwc.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "compiler/topi/static_shape.h"
#include "tests/unit/compiler/topi/topi_harness.h"

namespace tunefarm::topi {
namespace {

using testing::BackendCase;
using testing::Placeholder;

// out[n][g][y][x][c] over blocked data [N][G][H][W][cb] and kernel [G][KH][KW][cb].
std::vector<float> NaiveDepthwiseNchwc(const runtime::NDArray& data, const runtime::NDArray& kernel,
                                       const std::vector<int64_t>& out_shape, const Window2d& w) {
  const std::vector<int64_t>& ds = data.shape();
  const std::vector<int64_t>& ks = kernel.shape();
  const int64_t n = ds[0], g = ds[1], h = ds[2], wd = ds[3], cb = ds[4], kh = ks[1], kw = ks[2];
  const int64_t oh = out_shape[2], ow = out_shape[3];
  const float* d = testing::Data(data);
  const float* k = testing::Data(kernel);
  std::vector<float> out;
  for (int64_t b = 0; b < n; ++b) {
    for (int64_t gi = 0; gi < g; ++gi) {
      for (int64_t y = 0; y < oh; ++y) {
        for (int64_t x = 0; x < ow; ++x) {
          for (int64_t c = 0; c < cb; ++c) {
            double acc = 0;
            for (int64_t ry = 0; ry < kh; ++ry) {
              for (int64_t rx = 0; rx < kw; ++rx) {
                const int64_t iy = y * w.stride_h + ry * w.dilation_h - w.pad_top;
                const int64_t ix = x * w.stride_w + rx * w.dilation_w - w.pad_left;
                if (iy < 0 || iy >= h || ix < 0 || ix >= wd) continue;
                acc += static_cast<double>(d[(((b * g + gi) * h + iy) * wd + ix) * cb + c]) *
                       k[((gi * kh + ry) * kw + rx) * cb + c];
              }
            }
            out.push_back(static_cast<float>(acc));
          }
        }
      }
    }
  }
  return out;
}

class DepthwiseConv2dNchwcTest : public ::testing::TestWithParam<BackendCase> {
 protected:
  // NCHW data `nchw` and a kh x kw window, blocked by the config's channel block.
  void Check(const std::vector<int64_t>& nchw, int64_t kh, int64_t kw, const Window2d& window,
             void (*tweak)(DepthwiseConv2dNchwcScheduleConfig&) = nullptr) {
    DepthwiseConv2dNchwcScheduleConfig config =
        DefaultDepthwiseConv2dNchwcConfig(nchw, kh, kw, window, Avx2Cpu());
    if (tweak) tweak(config);
    SCOPED_TRACE(config.ToString() + ", " + window.ToString());
    const int64_t cb = config.channel_block, g = CeilDiv(nchw[1], cb);
    const std::vector<int64_t> data_shape = {nchw[0], g, nchw[2], nchw[3], cb};
    const std::vector<int64_t> kernel_shape = {g, kh, kw, cb};
    absl::StatusOr<DepthwiseConv2dNchwcTensors> t = DepthwiseConv2dNchwcCompute(
        Placeholder(data_shape, "data"), Placeholder(kernel_shape, "kernel"), window);
    ASSERT_TRUE(t.ok()) << t.status();
    absl::StatusOr<ScheduledOp> op = ScheduleDepthwiseConv2dNchwc(config, *t);
    ASSERT_TRUE(op.ok()) << op.status();
    runtime::NDArray data = testing::RandomArray(data_shape, 21);
    runtime::NDArray kernel = testing::RandomArray(kernel_shape, 22);
    std::vector<int64_t> out_shape;
    for (const ir::Expr& e : t->out.shape()) out_shape.push_back(*ir::AsConstInt(e));
    runtime::NDArray out = testing::OutputArray(out_shape);
    absl::Status st = testing::RunOn(GetParam(), *op, {&data, &kernel, &out});
    ASSERT_TRUE(st.ok()) << st;
    EXPECT_TRUE(
        testing::AllClose(out, NaiveDepthwiseNchwc(data, kernel, out_shape, window), 1e-5, 1e-5));
  }
};

TEST_P(DepthwiseConv2dNchwcTest, MobileNetLike3x3) {
  Check({1, 16, 9, 10}, 3, 3, Window2d::Make(1, 1));
}

TEST_P(DepthwiseConv2dNchwcTest, RaggedChannelsStrideDilation) {
  Window2d w{2, 2, 2, 1, 1, 0, 2, 1};
  Check({2, 5, 11, 13}, 3, 3, w);
}

TEST_P(DepthwiseConv2dNchwcTest, Knobs) {
  Check({1, 12, 7, 17}, 5, 5, Window2d::Make(1, 2), [](DepthwiseConv2dNchwcScheduleConfig& k) {
    k.channel_block = 16;
    k.vector_lanes = 4;
    k.reg_w = 3;  // 17 columns: a ragged tile
    k.pad_inline = true;
    k.unroll_window = false;
    k.parallel = false;
  });
}

INSTANTIATE_TEST_SUITE_P(Backends, DepthwiseConv2dNchwcTest,
                         ::testing::ValuesIn(testing::AllBackends()), testing::BackendName);

TEST(DepthwiseConv2dNchwcErrorTest, ShapesAndBlocksAreChecked) {
  te::Tensor data = Placeholder({1, 2, 6, 6, 8}, "data");
  absl::StatusOr<DepthwiseConv2dNchwcTensors> t =
      DepthwiseConv2dNchwcCompute(data, Placeholder({2, 3, 3, 4}, "kernel"), Window2d());
  ASSERT_FALSE(t.ok());
  EXPECT_THAT(std::string(t.status().message()),
              ::testing::HasSubstr("depthwise_conv2d_nchwc (data 1x2x6x6x8 (NCHWc), kernel"));
  t = DepthwiseConv2dNchwcCompute(data, Placeholder({2, 3, 3, 8}, "kernel"), Window2d());
  ASSERT_TRUE(t.ok()) << t.status();
  DepthwiseConv2dNchwcScheduleConfig config;
  config.channel_block = 16;
  EXPECT_EQ(ScheduleDepthwiseConv2dNchwc(config, *t).status().code(),
            absl::StatusCode::kFailedPrecondition);
  config.channel_block = 8;
  config.vector_lanes = 3;
  EXPECT_EQ(ScheduleDepthwiseConv2dNchwc(config, *t).status().code(),
            absl::StatusCode::kInvalidArgument);
}

}  // namespace
}  // namespace tunefarm::topi
