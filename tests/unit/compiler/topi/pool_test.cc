// Max and average pooling (count_include_pad both ways) with strides, padding and dilation,
// against the naive loop nest.
#include "compiler/topi/pool.h"

#include <gtest/gtest.h>

#include "tests/unit/compiler/topi/naive_window_ops.h"
#include "tests/unit/compiler/topi/topi_harness.h"

namespace tunefarm::topi {
namespace {

using testing::BackendCase;
using testing::Nchw;
using testing::Placeholder;

class Pool2dTest : public ::testing::TestWithParam<BackendCase> {
 protected:
  void Check(const Nchw& d, const Pool2dParams& p, void (*tweak)(Pool2dScheduleConfig&) = nullptr) {
    std::vector<int64_t> data_shape = {d.n, d.c, d.h, d.w};
    absl::StatusOr<Pool2dTensors> t = Pool2dCompute(Placeholder(data_shape, "data"), p);
    ASSERT_TRUE(t.ok()) << t.status();
    Pool2dScheduleConfig config = DefaultPool2dConfig(*t, Avx2Cpu());
    if (tweak) tweak(config);
    SCOPED_TRACE(config.ToString() + ", " + p.window.ToString());
    absl::StatusOr<ScheduledOp> op = SchedulePool2d(config, *t);
    ASSERT_TRUE(op.ok()) << op.status();
    runtime::NDArray data = testing::RandomArray(data_shape, 13);
    std::vector<int64_t> out_shape;
    for (const ir::Expr& e : t->out.shape()) out_shape.push_back(*ir::AsConstInt(e));
    runtime::NDArray out = testing::OutputArray(out_shape);
    absl::Status st = testing::RunOn(GetParam(), *op, {&data, &out});
    ASSERT_TRUE(st.ok()) << st;
    std::vector<float> want =
        testing::NaivePool2d(testing::Data(data), d, p.kernel_h, p.kernel_w, p.window,
                             p.type == PoolType::kMax, p.count_include_pad);
    EXPECT_TRUE(testing::AllClose(out, want, 1e-6, 1e-5));
  }
};

Pool2dParams Params(PoolType type, int64_t k, const Window2d& w, bool include_pad = false) {
  Pool2dParams p;
  p.type = type;
  p.kernel_h = p.kernel_w = k;
  p.window = w;
  p.count_include_pad = include_pad;
  return p;
}

TEST_P(Pool2dTest, MaxPool3x3Stride2Pad1) {
  Check({1, 3, 11, 17}, Params(PoolType::kMax, 3, Window2d::Make(2, 1)));
}

const Window2d kAsymmetric{2, 1, 1, 2, 0, 1, 1, 1};  // stride 2x1, pad t1 l2 b0 r1

TEST_P(Pool2dTest, AvgPoolExcludingPadding) {
  Check({2, 2, 9, 12}, Params(PoolType::kAvg, 3, kAsymmetric, false));
}

TEST_P(Pool2dTest, AvgPoolIncludingPadding) {
  Check({2, 2, 9, 12}, Params(PoolType::kAvg, 3, kAsymmetric, true));
}

TEST_P(Pool2dTest, DilatedAvgExcludesPadding) {
  Window2d w{1, 1, 2, 2, 2, 2, 2, 2};
  Check({1, 2, 7, 10}, Params(PoolType::kAvg, 3, w, false));
}

void OtherKnobs(Pool2dScheduleConfig& k) {
  k.pad_inline = true;
  k.unroll_window = false;
  k.reg_w_vectors = 2;
  k.vector_lanes = 4;
  k.parallel = false;
}

TEST_P(Pool2dTest, MaxPoolOtherKnobs) {
  Check({1, 2, 8, 19}, Params(PoolType::kMax, 2, Window2d::Make(1, 1)), OtherKnobs);
}

TEST_P(Pool2dTest, AvgPoolOtherKnobs) {
  Check({1, 2, 8, 19}, Params(PoolType::kAvg, 2, Window2d::Make(1, 1)), OtherKnobs);
}

INSTANTIATE_TEST_SUITE_P(Backends, Pool2dTest, ::testing::ValuesIn(testing::AllBackends()),
                         testing::BackendName);

TEST(Pool2dErrorTest, WindowLargerThanPaddedInput) {
  absl::StatusOr<Pool2dTensors> t =
      Pool2dCompute(Placeholder({1, 1, 2, 2}, "data"), Params(PoolType::kMax, 3, Window2d()));
  ASSERT_FALSE(t.ok());
  EXPECT_THAT(std::string(t.status().message()),
              ::testing::HasSubstr("max_pool2d (data 1x1x2x2, window 3x3)"));
}

}  // namespace
}  // namespace tunefarm::topi
