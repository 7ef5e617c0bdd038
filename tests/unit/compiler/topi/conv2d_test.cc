// conv2d NCHW (direct): every schedule knob computes what the naive loop nest does, over
// strides, asymmetric padding, dilation and widths the register tile does not divide; and with
// rows in whole vectors (a width rounded up and cut back, strided columns split into phases).
#include "compiler/topi/conv2d.h"

#include <gtest/gtest.h>

#include "tests/unit/compiler/topi/naive_window_ops.h"
#include "tests/unit/compiler/topi/topi_harness.h"

namespace tunefarm::topi {
namespace {

using testing::BackendCase;
using testing::Nchw;
using testing::Placeholder;

constexpr double kConv2dAtol = 1e-4, kConv2dRtol = 1e-4;

struct Conv2dCase {
  Nchw data;
  int64_t out_channels, kh, kw;
  Window2d window;
};

class Conv2dTest : public ::testing::TestWithParam<BackendCase> {
 protected:
  // Runs the conv with `tweak` applied to the default config and compares with the reference.
  void Check(const Conv2dCase& c, void (*tweak)(Conv2dScheduleConfig&) = nullptr,
             const VectorRows& rows = {}) {
    const Nchw& d = c.data;
    std::vector<int64_t> data_shape = {d.n, d.c, d.h, d.w};
    std::vector<int64_t> kernel_shape = {c.out_channels, d.c, c.kh, c.kw};
    absl::StatusOr<Conv2dTensors> t = Conv2dCompute(
        Placeholder(data_shape, "data"), Placeholder(kernel_shape, "kernel"), c.window, rows);
    ASSERT_TRUE(t.ok()) << t.status();
    Conv2dScheduleConfig config = DefaultConv2dConfig(*t, Avx2Cpu());
    if (tweak) tweak(config);
    SCOPED_TRACE(config.ToString() + ", " + c.window.ToString());
    const bool cut = !t->cropped.same_as(t->out);
    absl::StatusOr<ScheduledOp> op = ScheduleConv2d(config, *t, cut ? t->cropped : te::Tensor());
    ASSERT_TRUE(op.ok()) << op.status();
    runtime::NDArray data = testing::RandomArray(data_shape, 3);
    runtime::NDArray kernel = testing::RandomArray(kernel_shape, 4);
    std::vector<int64_t> out_shape;
    for (const ir::Expr& e : t->cropped.shape()) out_shape.push_back(*ir::AsConstInt(e));
    runtime::NDArray out = testing::OutputArray(out_shape);
    absl::Status st = testing::RunOn(GetParam(), *op, {&data, &kernel, &out});
    ASSERT_TRUE(st.ok()) << st;
    std::vector<float> want = testing::NaiveConv2d(testing::Data(data), d, testing::Data(kernel),
                                                   c.out_channels, c.kh, c.kw, c.window, false);
    EXPECT_TRUE(testing::AllClose(out, want, kConv2dAtol, kConv2dRtol));
  }
};

TEST_P(Conv2dTest, SamePadding3x3) { Check({{1, 3, 7, 9}, 5, 3, 3, Window2d::Make(1, 1)}); }

TEST_P(Conv2dTest, StrideAsymmetricPaddingDilation) {
  Window2d w{2, 2, 1, 0, 2, 1, 2, 1};  // stride 2x2, pad t1 l0 b2 r1, dilation 2x1
  Check({{2, 4, 11, 10}, 6, 3, 2, w});
}

TEST_P(Conv2dTest, PointwiseNoPadding) { Check({{1, 5, 6, 17}, 7, 1, 1, Window2d()}); }

const Conv2dCase kConv2dKnobCase{{1, 3, 9, 19}, 6, 3, 3, Window2d::Make(1, 1)};

TEST_P(Conv2dTest, WindowFirstOrder) {
  Check(kConv2dKnobCase, [](Conv2dScheduleConfig& k) { k.order = ConvReduceOrder::kWindowFirst; });
}

TEST_P(Conv2dTest, PaddingInlined) {
  Check(kConv2dKnobCase, [](Conv2dScheduleConfig& k) { k.pad_inline = true; });
}

TEST_P(Conv2dTest, RaggedRegisterTiles) {
  Check(kConv2dKnobCase, [](Conv2dScheduleConfig& k) {
    k.reg_o = 4;  // 6 channels: a ragged block
    k.reg_w_vectors = 2;
    k.vector_lanes = 4;
    k.unroll_kw = false;
    k.parallel = false;
  });
}

TEST_P(Conv2dTest, VectorRowsRoundTheWidthUpAndCutItBack) {
  // 7 columns computed as 8, one ragged vector's worth cut back in the stored tile.
  Check({{1, 4, 7, 7}, 8, 3, 3, Window2d::Make(1, 1)}, nullptr, {8, true});
  Check({{1, 3, 5, 14}, 4, 1, 1, Window2d()}, nullptr, {16, true});
}

TEST_P(Conv2dTest, VectorRowsSplitStridedColumnsIntoPhases) {
  Window2d s2{2, 2, 1, 0, 2, 1, 2, 2};  // stride 2, pad t1 l0 b2 r1, dilation 2
  Check({{1, 4, 11, 13}, 6, 3, 3, s2}, nullptr, {8, true});
  Check({{1, 3, 9, 17}, 5, 7, 7, Window2d::Make(3, 3)}, nullptr, {8, true});  // stride 3
  Check({{1, 3, 9, 17}, 5, 3, 3, Window2d::Make(2, 1)},
        [](Conv2dScheduleConfig& k) { k.pad_inline = true; }, {8, true});
}

INSTANTIATE_TEST_SUITE_P(Backends, Conv2dTest, ::testing::ValuesIn(testing::AllBackends()),
                         testing::BackendName);

TEST(Conv2dErrorTest, KernelLargerThanPaddedInput) {
  absl::StatusOr<Conv2dTensors> t = Conv2dCompute(Placeholder({1, 3, 4, 4}, "data"),
                                                  Placeholder({8, 3, 5, 5}, "kernel"), Window2d());
  ASSERT_FALSE(t.ok());
  EXPECT_EQ(t.status().code(), absl::StatusCode::kInvalidArgument);
  const std::string msg(t.status().message());
  EXPECT_THAT(msg, ::testing::HasSubstr("conv2d (data 1x3x4x4, kernel 8x3x5x5"));
  EXPECT_THAT(msg, ::testing::HasSubstr("larger than the padded input 4x4"));
}

TEST(Conv2dErrorTest, ChannelMismatchAndBadWindow) {
  te::Tensor data = Placeholder({1, 3, 8, 8}, "data");
  EXPECT_FALSE(Conv2dCompute(data, Placeholder({8, 4, 3, 3}, "kernel"), Window2d()).ok());
  Window2d zero_stride = Window2d::Make(0, 1);
  absl::StatusOr<Conv2dTensors> t =
      Conv2dCompute(data, Placeholder({8, 3, 3, 3}, "kernel"), zero_stride);
  ASSERT_FALSE(t.ok());
  EXPECT_THAT(std::string(t.status().message()), ::testing::HasSubstr("stride 0x0"));
}

}  // namespace
}  // namespace tunefarm::topi
