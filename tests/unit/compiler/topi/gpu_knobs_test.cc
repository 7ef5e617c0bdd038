// The GPU templates' knob spaces: each default config is a point of its space (on odd and on
// large shapes) and maps back unchanged; every sampled point keeps the block within the thread
// and shared-memory limits and schedules; a tile the space lacks is an error.
#include <gtest/gtest.h>

#include "compiler/space/config_json.h"
#include "compiler/topi/gpu_common_knobs.h"
#include "compiler/topi/gpu_conv2d_knobs.h"
#include "compiler/topi/gpu_depthwise_conv2d_knobs.h"
#include "compiler/topi/gpu_matmul_knobs.h"
#include "tests/unit/compiler/topi/knob_test_util.h"
#include "tests/unit/compiler/topi/topi_harness.h"

namespace tunefarm::topi {
namespace {

TEST(GpuKnobsTest, MatmulDefaultIsAPointAndSampledPointsFitTheLimits) {
  for (auto [m, n, k] : {std::tuple<int64_t, int64_t, int64_t>{37, 29, 23},
                         {1024, 1024, 1024},
                         {1, 1000, 2048},
                         {3, 5, 7}}) {
    const GemmTensors t =
        *MatmulCompute(testing::Placeholder({m, k}, "A"), testing::Placeholder({k, n}, "B"));
    space::ConfigSpace space;
    ASSERT_TRUE(DefineGpuMatmulKnobs(space, t).ok());
    const GpuMatmulScheduleConfig def = DefaultGpuMatmulConfig(m, n, k);
    SCOPED_TRACE(def.ToString());
    absl::StatusOr<space::Config> p = GpuMatmulKnobsFromConfig(space, def);
    ASSERT_TRUE(p.ok()) << p.status();
    absl::StatusOr<GpuMatmulScheduleConfig> back = GpuMatmulConfigFromKnobs(*p);
    ASSERT_TRUE(back.ok()) << back.status();
    EXPECT_EQ(back->ToString(), def.ToString()) << space::ConfigToJson(*p);
    for (const space::Config& s : testing::Sample(space, 20, 3)) {
      absl::StatusOr<GpuMatmulScheduleConfig> c = GpuMatmulConfigFromKnobs(s);
      ASSERT_TRUE(c.ok()) << c.status();
      EXPECT_LE(c->Threads(), kGpuMaxThreadsPerBlock);
      EXPECT_LE(c->SharedBytes(), kGpuMaxSharedBytes);
      EXPECT_TRUE(ScheduleGpuMatmul(*c, t).ok()) << c->ToString();
    }
  }
}

TEST(GpuKnobsTest, Conv2dDefaultIsAPointAndSampledPointsFitTheLimits) {
  struct Case {
    std::vector<int64_t> data, kernel;
    int64_t stride, pad;
  };
  // Odd sizes; the 3x3, 256-channel, 14x14 layer at batch 256; a strided 7x7 stem.
  for (const Case& c :
       {Case{{1, 5, 9, 9}, {7, 5, 3, 3}, 1, 1}, Case{{256, 256, 14, 14}, {512, 256, 3, 3}, 1, 1},
        Case{{1, 3, 224, 224}, {64, 3, 7, 7}, 2, 3}}) {
    const Window2d window = Window2d::Make(c.stride, c.pad);
    const Conv2dTensors t = *Conv2dCompute(testing::Placeholder(c.data, "data"),
                                           testing::Placeholder(c.kernel, "kernel"), window);
    space::ConfigSpace space;
    ASSERT_TRUE(DefineGpuConv2dKnobs(space, t, window).ok());
    const GpuConv2dScheduleConfig def = DefaultGpuConv2dConfig(t);
    SCOPED_TRACE(def.ToString());
    absl::StatusOr<space::Config> p = GpuConv2dKnobsFromConfig(space, def);
    ASSERT_TRUE(p.ok()) << p.status();
    absl::StatusOr<GpuConv2dScheduleConfig> back = GpuConv2dConfigFromKnobs(*p);
    ASSERT_TRUE(back.ok()) << back.status();
    EXPECT_EQ(back->ToString(), def.ToString()) << space::ConfigToJson(*p);
    const int64_t kh = c.kernel[2], kw = c.kernel[3];
    for (const space::Config& s : testing::Sample(space, 20, 5)) {
      absl::StatusOr<GpuConv2dScheduleConfig> g = GpuConv2dConfigFromKnobs(s);
      ASSERT_TRUE(g.ok()) << g.status();
      EXPECT_LE(g->Threads(), kGpuMaxThreadsPerBlock);
      EXPECT_LE(g->SharedBytes(window, kh, kw), kGpuMaxSharedBytes);
      EXPECT_LE(c.data[0] * g->f.Blocks(c.kernel[0]), kGpuMaxGridYZ);
      EXPECT_LE(g->f.threads, kGpuMaxBlockZ);
      EXPECT_TRUE(ScheduleGpuConv2d(*g, t, window).ok()) << g->ToString();
    }
  }
}

TEST(GpuKnobsTest, DepthwiseDefaultIsAPointAndSampledPointsFitTheLimits) {
  for (const std::vector<int64_t>& data :
       {std::vector<int64_t>{1, 6, 11, 11}, {1, 32, 112, 112}, {8, 512, 14, 14}}) {
    const Window2d window = Window2d::Make(1, 1);
    const DepthwiseConv2dTensors t =
        *DepthwiseConv2dCompute(testing::Placeholder(data, "data"),
                                testing::Placeholder({data[1], 1, 3, 3}, "kernel"), window);
    space::ConfigSpace space;
    ASSERT_TRUE(DefineGpuDepthwiseConv2dKnobs(space, t, window).ok());
    const GpuDepthwiseConv2dScheduleConfig def = DefaultGpuDepthwiseConv2dConfig(t);
    SCOPED_TRACE(def.ToString());
    absl::StatusOr<space::Config> p = GpuDepthwiseConv2dKnobsFromConfig(space, def);
    ASSERT_TRUE(p.ok()) << p.status();
    absl::StatusOr<GpuDepthwiseConv2dScheduleConfig> back = GpuDepthwiseConv2dConfigFromKnobs(*p);
    ASSERT_TRUE(back.ok()) << back.status();
    EXPECT_EQ(back->ToString(), def.ToString()) << space::ConfigToJson(*p);
    for (const space::Config& s : testing::Sample(space, 20, 7)) {
      absl::StatusOr<GpuDepthwiseConv2dScheduleConfig> g = GpuDepthwiseConv2dConfigFromKnobs(s);
      ASSERT_TRUE(g.ok()) << g.status();
      EXPECT_LE(g->Threads(), kGpuMaxThreadsPerBlock);
      EXPECT_LE(g->SharedBytes(window, 3, 3), kGpuMaxSharedBytes);
      EXPECT_TRUE(ScheduleGpuDepthwiseConv2d(*g, t, window).ok()) << g->ToString();
    }
  }
}

TEST(GpuKnobsTest, ATileTheSpaceLacksIsAnError) {
  const GemmTensors t =
      *MatmulCompute(testing::Placeholder({37, 23}, "A"), testing::Placeholder({23, 29}, "B"));
  space::ConfigSpace space;
  ASSERT_TRUE(DefineGpuMatmulKnobs(space, t).ok());
  GpuMatmulScheduleConfig c = DefaultGpuMatmulConfig(37, 29, 23);
  c.m.threads = 3;  // 3 does not divide 40, the rounded-up row extent
  EXPECT_EQ(GpuMatmulKnobsFromConfig(space, c).status().code(), absl::StatusCode::kInvalidArgument);
  c = DefaultGpuMatmulConfig(37, 29, 23);
  c.m = {2, 4, 5};  // spans 40 and 32 divide the knobs' extents, but 2*5 x 4*2 = 80
  c.n = {4, 4, 2};  // accumulators break the 64 limit
  EXPECT_EQ(GpuMatmulKnobsFromConfig(space, c).status().code(),
            absl::StatusCode::kFailedPrecondition);
}

TEST(GpuKnobsTest, GridsBeyondTheLimitAreRefused) {
  // Batch 256 x 512 channels one per block would be a gridDim.z of 131072.
  const Window2d window = Window2d::Make(1, 1);
  const Conv2dTensors t = *Conv2dCompute(testing::Placeholder({256, 256, 14, 14}, "data"),
                                         testing::Placeholder({512, 256, 3, 3}, "kernel"), window);
  GpuConv2dScheduleConfig c = DefaultGpuConv2dConfig(t);
  EXPECT_TRUE(ScheduleGpuConv2d(c, t, window).ok());
  c.f = {1, 1, 1};
  EXPECT_EQ(ScheduleGpuConv2d(c, t, window).status().code(), absl::StatusCode::kInvalidArgument);
}

TEST(GpuKnobsTest, MoreThan64ThreadsOnZAreRefused) {
  // CUDA's blockDim.z is at most 64; the channel tile rides on it. Found by the first tuning run
  // on an H100, where such a point was a build_error.
  const Window2d window = Window2d::Make(1, 1);
  const Conv2dTensors t = *Conv2dCompute(testing::Placeholder({2, 256, 14, 14}, "data"),
                                         testing::Placeholder({256, 256, 3, 3}, "kernel"), window);
  GpuConv2dScheduleConfig c = DefaultGpuConv2dConfig(t);
  c.f = {1, 128, 1};
  c.y = {1, 1, 1};
  c.x = {1, 2, 1};
  absl::Status st = ScheduleGpuConv2d(c, t, window).status();
  EXPECT_EQ(st.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_NE(st.message().find("threads on z"), std::string::npos) << st;
  space::ConfigSpace space;
  ASSERT_TRUE(DefineGpuConv2dKnobs(space, t, window).ok());
  EXPECT_EQ(GpuConv2dKnobsFromConfig(space, c).status().code(),
            absl::StatusCode::kFailedPrecondition);
}

TEST(GpuKnobsTest, OddExtentsAreRoundedUpSoTheyStillSplit) {
  EXPECT_EQ(GpuKnobExtent(7), 7);
  EXPECT_EQ(GpuKnobExtent(37), 40);
  EXPECT_EQ(GpuKnobExtent(1024), 1024);
  const GpuAxisTile t = DefaultGpuAxisTile(37, 8, 2);
  EXPECT_EQ(t.threads, 8);
  EXPECT_EQ(t.inner, 1);  // 40 / 8 = 5 has no divisor 2
}

}  // namespace
}  // namespace tunefarm::topi
