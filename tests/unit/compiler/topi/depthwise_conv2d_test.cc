// Depthwise conv2d NCHW, with channel multipliers, strides, padding and dilation, against the
// naive loop nest.
#include "compiler/topi/depthwise_conv2d.h"

#include <gtest/gtest.h>

#include "tests/unit/compiler/topi/naive_window_ops.h"
#include "tests/unit/compiler/topi/topi_harness.h"

namespace tunefarm::topi {
namespace {

using testing::BackendCase;
using testing::Nchw;
using testing::Placeholder;

class DepthwiseConv2dTest : public ::testing::TestWithParam<BackendCase> {
 protected:
  void Check(const Nchw& d, int64_t mult, int64_t kh, int64_t kw, const Window2d& window,
             void (*tweak)(DepthwiseConv2dScheduleConfig&) = nullptr, const VectorRows& rows = {}) {
    std::vector<int64_t> data_shape = {d.n, d.c, d.h, d.w}, kernel_shape = {d.c, mult, kh, kw};
    absl::StatusOr<DepthwiseConv2dTensors> t = DepthwiseConv2dCompute(
        Placeholder(data_shape, "data"), Placeholder(kernel_shape, "kernel"), window, rows);
    ASSERT_TRUE(t.ok()) << t.status();
    DepthwiseConv2dScheduleConfig config = DefaultDepthwiseConv2dConfig(*t, Avx2Cpu());
    if (tweak) tweak(config);
    SCOPED_TRACE(config.ToString() + ", " + window.ToString());
    absl::StatusOr<ScheduledOp> op = ScheduleDepthwiseConv2d(config, *t);
    ASSERT_TRUE(op.ok()) << op.status();
    runtime::NDArray data = testing::RandomArray(data_shape, 11);
    runtime::NDArray kernel = testing::RandomArray(kernel_shape, 12);
    std::vector<int64_t> out_shape;
    for (const ir::Expr& e : t->cropped.shape()) out_shape.push_back(*ir::AsConstInt(e));
    runtime::NDArray out = testing::OutputArray(out_shape);
    absl::Status st = testing::RunOn(GetParam(), *op, {&data, &kernel, &out});
    ASSERT_TRUE(st.ok()) << st;
    std::vector<float> want = testing::NaiveConv2d(testing::Data(data), d, testing::Data(kernel),
                                                   d.c * mult, kh, kw, window, true);
    EXPECT_TRUE(testing::AllClose(out, want, 1e-5, 1e-5));
  }
};

TEST_P(DepthwiseConv2dTest, MobileNetLike3x3) {
  Check({1, 4, 9, 20}, 1, 3, 3, Window2d::Make(1, 1));
}

TEST_P(DepthwiseConv2dTest, MultiplierStrideDilation) {
  Window2d w{2, 2, 2, 1, 1, 0, 2, 1};
  Check({2, 3, 11, 13}, 2, 3, 3, w);
}

TEST_P(DepthwiseConv2dTest, VectorRowsRoundUpCutBackAndSplitStridedColumns) {
  Check({1, 4, 7, 7}, 1, 3, 3, Window2d::Make(1, 1), nullptr, VectorRowsFor(7));
  Check({1, 3, 14, 28}, 1, 3, 3, Window2d::Make(2, 1), nullptr, VectorRowsFor(14));
  Window2d w{2, 2, 2, 1, 1, 0, 2, 2};  // stride 2, asymmetric pads, dilation 2
  Check(
      {1, 3, 11, 13}, 2, 3, 3, w, [](DepthwiseConv2dScheduleConfig& k) { k.pad_inline = true; },
      VectorRows{8, true});
}

TEST_P(DepthwiseConv2dTest, Knobs) {
  Check({1, 2, 7, 17}, 1, 5, 5, Window2d::Make(1, 2), [](DepthwiseConv2dScheduleConfig& k) {
    k.pad_inline = true;
    k.unroll_window = false;
    k.reg_w_vectors = 2;
    k.vector_lanes = 4;
    k.parallel = false;
  });
}

INSTANTIATE_TEST_SUITE_P(Backends, DepthwiseConv2dTest, ::testing::ValuesIn(testing::AllBackends()),
                         testing::BackendName);

TEST(DepthwiseConv2dErrorTest, ShapesAreChecked) {
  te::Tensor data = Placeholder({1, 4, 3, 3}, "data");
  absl::StatusOr<DepthwiseConv2dTensors> t =
      DepthwiseConv2dCompute(data, Placeholder({3, 1, 3, 3}, "kernel"), Window2d());
  ASSERT_FALSE(t.ok());
  EXPECT_THAT(std::string(t.status().message()),
              ::testing::HasSubstr("depthwise_conv2d (data 1x4x3x3, kernel 3x1x3x3"));
  t = DepthwiseConv2dCompute(data, Placeholder({4, 1, 4, 4}, "kernel"), Window2d());
  ASSERT_FALSE(t.ok());
  EXPECT_THAT(std::string(t.status().message()), ::testing::HasSubstr("larger than the padded"));
}

}  // namespace
}  // namespace tunefarm::topi
