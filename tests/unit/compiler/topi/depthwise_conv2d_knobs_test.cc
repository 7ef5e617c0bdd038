// The depthwise conv2d's knobs: the library default is a point of every space and maps back
// unchanged; every valid point keeps its tile within the row and schedules.
#include "compiler/topi/depthwise_conv2d_knobs.h"

#include <gtest/gtest.h>

#include "compiler/space/config_json.h"
#include "compiler/topi/loop_tiling.h"
#include "tests/unit/compiler/topi/knob_test_util.h"
#include "tests/unit/compiler/topi/topi_harness.h"

namespace tunefarm::topi {
namespace {

struct DwCase {
  std::vector<int64_t> data;
  int64_t kh, kw, stride, pad;
};

const DwCase kDwKnobCases[] = {{{1, 32, 112, 112}, 3, 3, 1, 1},
                               {{1, 512, 14, 14}, 3, 3, 1, 1},
                               {{1, 144, 56, 56}, 3, 3, 2, 1},
                               {{2, 3, 9, 37}, 5, 3, 1, 0},
                               {{1, 4, 3, 3}, 1, 1, 1, 0}};

DepthwiseConv2dTensors DwTensors(const DwCase& c) {
  return *DepthwiseConv2dCompute(testing::Placeholder(c.data, "data"),
                                 testing::Placeholder({c.data[1], 1, c.kh, c.kw}, "kernel"),
                                 Window2d::Make(c.stride, c.pad));
}

TEST(DepthwiseConv2dKnobsTest, TheDefaultIsInEverySpaceAndMapsBackUnchanged) {
  for (const CpuInfo& cpu : testing::KnobCpus()) {
    for (const DwCase& c : kDwKnobCases) {
      const DepthwiseConv2dTensors t = DwTensors(c);
      const DepthwiseConv2dScheduleConfig def = DefaultDepthwiseConv2dConfig(t, cpu);
      SCOPED_TRACE(cpu.ToString() + ": " + def.ToString());
      space::ConfigSpace space;
      ASSERT_TRUE(DefineDepthwiseConv2dKnobs(space, t, Window2d::Make(c.stride, c.pad), cpu).ok());
      absl::StatusOr<space::Config> p = DepthwiseConv2dKnobsFromConfig(space, def);
      ASSERT_TRUE(p.ok()) << p.status();
      absl::StatusOr<DepthwiseConv2dScheduleConfig> back = DepthwiseConv2dConfigFromKnobs(*p, cpu);
      ASSERT_TRUE(back.ok()) << back.status();
      EXPECT_EQ(back->ToString(), def.ToString()) << space::ConfigToJson(*p);
    }
  }
}

TEST(DepthwiseConv2dKnobsTest, ValidPointsStayWithinTheRowAndSchedule) {
  const DwCase c = kDwKnobCases[0];
  const DepthwiseConv2dTensors t = DwTensors(c);
  space::ConfigSpace space;
  ASSERT_TRUE(
      DefineDepthwiseConv2dKnobs(space, t, Window2d::Make(1, 1), testing::Avx512Cpu()).ok());
  EXPECT_EQ(space.knob(space.KnobPosition("vector_lanes")).size(), 3);  // 16, 8, 4
  for (const space::Config& p : testing::Sample(space, 40, 2)) {
    absl::StatusOr<DepthwiseConv2dScheduleConfig> k =
        DepthwiseConv2dConfigFromKnobs(p, testing::Avx512Cpu());
    ASSERT_TRUE(k.ok());
    EXPECT_TRUE(k->reg_w_vectors == 1 ||
                k->reg_w_vectors * k->vector_lanes <= RoundUpTo(112, k->vector_lanes));
    EXPECT_TRUE(ScheduleDepthwiseConv2d(*k, t).ok()) << k->ToString();
  }
}

}  // namespace
}  // namespace tunefarm::topi
