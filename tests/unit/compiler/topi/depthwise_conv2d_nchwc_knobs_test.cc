// The channel-blocked depthwise conv2d's knobs: the default is a point of every space and maps
// back unchanged; valid points fit the registers.
#include "compiler/topi/depthwise_conv2d_nchwc_knobs.h"

#include <gtest/gtest.h>

#include "compiler/space/config_json.h"
#include "tests/unit/compiler/topi/knob_test_util.h"

namespace tunefarm::topi {
namespace {

struct NchwcDwCase {
  std::vector<int64_t> data;
  int64_t kh, kw, stride, pad;
};

const NchwcDwCase kNchwcDwCases[] = {{{1, 32, 112, 112}, 3, 3, 1, 1},
                                     {{1, 512, 14, 14}, 3, 3, 1, 1},
                                     {{1, 144, 56, 56}, 3, 3, 2, 1},
                                     {{2, 3, 9, 37}, 5, 3, 1, 0},
                                     {{1, 4, 3, 3}, 1, 1, 1, 0}};

TEST(DepthwiseConv2dNchwcKnobsTest, TheDefaultIsInEverySpaceAndMapsBackUnchanged) {
  for (const CpuInfo& cpu : testing::KnobCpus()) {
    for (const NchwcDwCase& c : kNchwcDwCases) {
      const Window2d window = Window2d::Make(c.stride, c.pad);
      const DepthwiseConv2dNchwcScheduleConfig def =
          DefaultDepthwiseConv2dNchwcConfig(c.data, c.kh, c.kw, window, cpu);
      SCOPED_TRACE(cpu.ToString() + ": " + def.ToString());
      space::ConfigSpace space;
      ASSERT_TRUE(DefineDepthwiseConv2dNchwcKnobs(space, c.data, c.kh, c.kw, window, cpu).ok());
      absl::StatusOr<space::Config> p = DepthwiseConv2dNchwcKnobsFromConfig(space, def);
      ASSERT_TRUE(p.ok()) << p.status();
      absl::StatusOr<DepthwiseConv2dNchwcScheduleConfig> back =
          DepthwiseConv2dNchwcConfigFromKnobs(*p, cpu);
      ASSERT_TRUE(back.ok()) << back.status();
      EXPECT_EQ(back->ToString(), def.ToString()) << space::ConfigToJson(*p);
    }
  }
}

TEST(DepthwiseConv2dNchwcKnobsTest, ValidPointsFitTheRegisters) {
  const CpuInfo cpu = Avx2Cpu();
  space::ConfigSpace space;
  ASSERT_TRUE(
      DefineDepthwiseConv2dNchwcKnobs(space, {1, 64, 56, 56}, 3, 3, Window2d::Make(1, 1), cpu)
          .ok());
  EXPECT_EQ(space.knob(space.KnobPosition("channel_block")).size(), 3);  // 8, 16, 32
  for (const space::Config& p : testing::Sample(space, 50, 5)) {
    absl::StatusOr<DepthwiseConv2dNchwcScheduleConfig> k =
        DepthwiseConv2dNchwcConfigFromKnobs(p, cpu);
    ASSERT_TRUE(k.ok());
    const int64_t vectors = k->channel_block / k->vector_lanes;
    EXPECT_LE(k->reg_w * vectors + vectors + 1, cpu.vector_registers) << k->ToString();
  }
}

TEST(DepthwiseConv2dNchwcKnobsTest, Errors) {
  space::ConfigSpace space;
  EXPECT_FALSE(DefineDepthwiseConv2dNchwcKnobs(space, {1, 3, 8}, 3, 3, Window2d(), Avx2Cpu()).ok());
  space::ConfigSpace small;
  EXPECT_FALSE(
      DefineDepthwiseConv2dNchwcKnobs(small, {1, 3, 2, 2}, 3, 3, Window2d(), Avx2Cpu()).ok());
}

}  // namespace
}  // namespace tunefarm::topi
