// The GPU depthwise conv2d (NCHW) template on the interpreter: the default config, hand-picked
// configs (virtual threads, ragged tiles, a channel multiplier, no shared input) and a seeded
// sample of its space against a naive depthwise conv.
#include "compiler/topi/gpu_depthwise_conv2d.h"

#include <gtest/gtest.h>

#include "compiler/topi/gpu_depthwise_conv2d_knobs.h"
#include "tests/unit/compiler/topi/knob_test_util.h"
#include "tests/unit/compiler/topi/naive_window_ops.h"
#include "tests/unit/compiler/topi/topi_harness.h"

namespace tunefarm::topi {
namespace {

struct GpuDwCase {
  testing::Nchw data;
  int64_t mult, kh, kw, stride, pad;
};

// 1x6x11x11, 3x3, pad 1; and a multiplier-2, strided, unpadded, non-square one.
const GpuDwCase kPaddedDw{{1, 6, 11, 11}, 1, 3, 3, 1, 1};
const GpuDwCase kStridedDw{{2, 3, 9, 12}, 2, 3, 2, 2, 0};

Window2d WindowOf(const GpuDwCase& c) { return Window2d::Make(c.stride, c.pad); }

DepthwiseConv2dTensors GpuDwTensors(const GpuDwCase& c) {
  return *DepthwiseConv2dCompute(
      testing::Placeholder({c.data.n, c.data.c, c.data.h, c.data.w}, "data"),
      testing::Placeholder({c.data.c, c.mult, c.kh, c.kw}, "kernel"), WindowOf(c));
}

void ExpectGpuDwMatchesNaive(const GpuDwCase& c, const GpuDepthwiseConv2dScheduleConfig& config) {
  SCOPED_TRACE(config.ToString());
  const DepthwiseConv2dTensors t = GpuDwTensors(c);
  absl::StatusOr<ScheduledOp> op = ScheduleGpuDepthwiseConv2d(config, t, WindowOf(c));
  ASSERT_TRUE(op.ok()) << op.status();
  runtime::NDArray data = testing::RandomArray({c.data.n, c.data.c, c.data.h, c.data.w}, 5);
  runtime::NDArray kernel = testing::RandomArray({c.data.c, c.mult, c.kh, c.kw}, 6);
  std::vector<int64_t> out_shape;
  for (const ir::Expr& e : t.out.shape()) out_shape.push_back(*ir::AsConstInt(e));
  runtime::NDArray out = testing::OutputArray(out_shape);
  absl::Status st = testing::RunOn({testing::Backend::kInterp, 1}, *op, {&data, &kernel, &out});
  ASSERT_TRUE(st.ok()) << st;
  std::vector<float> want = testing::NaiveConv2d(testing::Data(data), c.data, testing::Data(kernel),
                                                 c.data.c * c.mult, c.kh, c.kw, WindowOf(c), true);
  EXPECT_TRUE(testing::AllClose(out, want, 1e-5, 1e-5));
}

TEST(GpuDepthwiseConv2dTest, DefaultConfigMatchesNaive) {
  for (const GpuDwCase& c : {kPaddedDw, kStridedDw}) {
    ExpectGpuDwMatchesNaive(c, DefaultGpuDepthwiseConv2dConfig(GpuDwTensors(c)));
  }
}

TEST(GpuDepthwiseConv2dTest, HandPickedConfigsMatchNaive) {
  GpuDepthwiseConv2dScheduleConfig config;
  config.c = {2, 1, 2};
  config.y = {1, 3, 2};
  config.x = {2, 4, 1};
  config.unroll_window = false;
  for (const GpuDwCase& c : {kPaddedDw, kStridedDw}) {
    config.shared_input = true;
    ExpectGpuDwMatchesNaive(c, config);
    config.shared_input = false;
    ExpectGpuDwMatchesNaive(c, config);
  }
}

TEST(GpuDepthwiseConv2dTest, SampledConfigsMatchNaive) {
  const DepthwiseConv2dTensors t = GpuDwTensors(kPaddedDw);
  space::ConfigSpace space;
  ASSERT_TRUE(DefineGpuDepthwiseConv2dKnobs(space, t, WindowOf(kPaddedDw)).ok());
  for (const space::Config& p : testing::Sample(space, 5, 13)) {
    absl::StatusOr<GpuDepthwiseConv2dScheduleConfig> c = GpuDepthwiseConv2dConfigFromKnobs(p);
    ASSERT_TRUE(c.ok()) << c.status();
    EXPECT_LE(c->Threads(), kGpuMaxThreadsPerBlock);
    EXPECT_LE(c->SharedBytes(WindowOf(kPaddedDw), 3, 3), kGpuMaxSharedBytes);
    ExpectGpuDwMatchesNaive(kPaddedDw, *c);
  }
}

TEST(GpuDepthwiseConv2dTest, RejectsTooManyThreads) {
  const DepthwiseConv2dTensors t = GpuDwTensors(kPaddedDw);
  GpuDepthwiseConv2dScheduleConfig c = DefaultGpuDepthwiseConv2dConfig(t);
  c.y.threads = 64;
  c.x.threads = 32;
  EXPECT_EQ(ScheduleGpuDepthwiseConv2d(c, t, WindowOf(kPaddedDw)).status().code(),
            absl::StatusCode::kInvalidArgument);
}

}  // namespace
}  // namespace tunefarm::topi
