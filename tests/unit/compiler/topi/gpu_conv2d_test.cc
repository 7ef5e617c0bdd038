// The GPU conv2d (NCHW) template on the interpreter (thread-bound loops run block by block,
// threads switching only at barriers): the default config, hand-picked virtual-thread and ragged
// configs, and a seeded sample of its space against a naive conv2d.
#include "compiler/topi/gpu_conv2d.h"

#include <gtest/gtest.h>

#include "compiler/topi/gpu_conv2d_knobs.h"
#include "tests/unit/compiler/topi/knob_test_util.h"
#include "tests/unit/compiler/topi/naive_window_ops.h"
#include "tests/unit/compiler/topi/topi_harness.h"

namespace tunefarm::topi {
namespace {

struct GpuConvCase {
  testing::Nchw data;
  int64_t out_channels, kh, kw, stride, pad;
};

// 1x5x9x9 -> 7 channels, 3x3, pad 1; and a strided, unpadded, non-square one.
const GpuConvCase kPadded{{1, 5, 9, 9}, 7, 3, 3, 1, 1};
const GpuConvCase kStrided{{2, 3, 8, 11}, 5, 3, 2, 2, 0};

Window2d WindowOf(const GpuConvCase& c) { return Window2d::Make(c.stride, c.pad); }

Conv2dTensors GpuConvTensors(const GpuConvCase& c) {
  return *Conv2dCompute(testing::Placeholder({c.data.n, c.data.c, c.data.h, c.data.w}, "data"),
                        testing::Placeholder({c.out_channels, c.data.c, c.kh, c.kw}, "kernel"),
                        WindowOf(c));
}

void ExpectGpuConvMatchesNaive(const GpuConvCase& c, const GpuConv2dScheduleConfig& config) {
  SCOPED_TRACE(config.ToString());
  const Conv2dTensors t = GpuConvTensors(c);
  absl::StatusOr<ScheduledOp> op = ScheduleGpuConv2d(config, t, WindowOf(c));
  ASSERT_TRUE(op.ok()) << op.status();
  runtime::NDArray data = testing::RandomArray({c.data.n, c.data.c, c.data.h, c.data.w}, 3);
  runtime::NDArray kernel = testing::RandomArray({c.out_channels, c.data.c, c.kh, c.kw}, 4);
  std::vector<int64_t> out_shape;
  for (const ir::Expr& e : t.out.shape()) out_shape.push_back(*ir::AsConstInt(e));
  runtime::NDArray out = testing::OutputArray(out_shape);
  absl::Status st = testing::RunOn({testing::Backend::kInterp, 1}, *op, {&data, &kernel, &out});
  ASSERT_TRUE(st.ok()) << st;
  std::vector<float> want = testing::NaiveConv2d(testing::Data(data), c.data, testing::Data(kernel),
                                                 c.out_channels, c.kh, c.kw, WindowOf(c), false);
  EXPECT_TRUE(testing::AllClose(out, want, 1e-4, 1e-4));
}

TEST(GpuConv2dTest, DefaultConfigMatchesNaive) {
  for (const GpuConvCase& c : {kPadded, kStrided})
    ExpectGpuConvMatchesNaive(c, DefaultGpuConv2dConfig(GpuConvTensors(c)));
}

TEST(GpuConv2dTest, VirtualThreadsAndRaggedTilesMatchNaive) {
  GpuConv2dScheduleConfig config;
  config.f = {2, 2, 1};
  config.y = {1, 2, 2};
  config.x = {2, 2, 2};
  config.tile_rc = 2;
  config.unroll_window = false;
  for (const GpuConvCase& c : {kPadded, kStrided}) ExpectGpuConvMatchesNaive(c, config);
}

TEST(GpuConv2dTest, SampledConfigsMatchNaive) {
  const Conv2dTensors t = GpuConvTensors(kPadded);
  space::ConfigSpace space;
  ASSERT_TRUE(DefineGpuConv2dKnobs(space, t, WindowOf(kPadded)).ok());
  for (const space::Config& p : testing::Sample(space, 5, 11)) {
    absl::StatusOr<GpuConv2dScheduleConfig> c = GpuConv2dConfigFromKnobs(p);
    ASSERT_TRUE(c.ok()) << c.status();
    EXPECT_LE(c->Threads(), kGpuMaxThreadsPerBlock);
    EXPECT_LE(c->SharedBytes(WindowOf(kPadded), 3, 3), kGpuMaxSharedBytes);
    ExpectGpuConvMatchesNaive(kPadded, *c);
  }
}

TEST(GpuConv2dTest, RejectsTooManyThreadsAndTooMuchSharedMemory) {
  const Conv2dTensors t = GpuConvTensors(kPadded);
  GpuConv2dScheduleConfig c = DefaultGpuConv2dConfig(t);
  c.f.threads = 32;
  c.x.threads = 64;
  EXPECT_EQ(ScheduleGpuConv2d(c, t, WindowOf(kPadded)).status().code(),
            absl::StatusCode::kInvalidArgument);
  c = DefaultGpuConv2dConfig(t);
  c.y.inner = 16;
  c.x.inner = 16;
  c.tile_rc = 64;
  EXPECT_EQ(ScheduleGpuConv2d(c, t, WindowOf(kPadded)).status().code(),
            absl::StatusCode::kInvalidArgument);
}

}  // namespace
}  // namespace tunefarm::topi
