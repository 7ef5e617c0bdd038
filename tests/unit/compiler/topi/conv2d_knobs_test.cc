// The direct conv2d's knobs: the library default is a point of every space and maps back
// unchanged, and every valid point keeps its register tile in the registers and schedules.
#include "compiler/topi/conv2d_knobs.h"

#include <gtest/gtest.h>

#include "compiler/space/config_json.h"
#include "tests/unit/compiler/topi/knob_test_util.h"
#include "tests/unit/compiler/topi/topi_harness.h"

namespace tunefarm::topi {
namespace {

struct KnobConvCase {
  std::vector<int64_t> data, kernel;
  int64_t stride, pad;
};

const KnobConvCase kConvKnobCases[] = {{{1, 64, 56, 56}, {64, 64, 3, 3}, 1, 1},
                                       {{1, 3, 224, 224}, {64, 3, 7, 7}, 2, 3},
                                       {{1, 256, 14, 14}, {512, 256, 1, 1}, 2, 0},
                                       {{2, 5, 11, 13}, {7, 5, 3, 3}, 1, 1},
                                       {{1, 1, 4, 4}, {1, 1, 1, 1}, 1, 0}};

Conv2dTensors KnobConvTensors(const KnobConvCase& c) {
  return *Conv2dCompute(testing::Placeholder(c.data, "data"),
                        testing::Placeholder(c.kernel, "kernel"), Window2d::Make(c.stride, c.pad));
}

TEST(Conv2dKnobsTest, TheDefaultIsInEverySpaceAndMapsBackUnchanged) {
  for (const CpuInfo& cpu : testing::KnobCpus()) {
    for (const KnobConvCase& c : kConvKnobCases) {
      const Conv2dTensors t = KnobConvTensors(c);
      const Conv2dScheduleConfig def = DefaultConv2dConfig(t, cpu);
      SCOPED_TRACE(cpu.ToString() + ": " + def.ToString());
      space::ConfigSpace space;
      ASSERT_TRUE(DefineConv2dKnobs(space, t, Window2d::Make(c.stride, c.pad), cpu).ok());
      absl::StatusOr<space::Config> p = Conv2dKnobsFromConfig(space, def);
      ASSERT_TRUE(p.ok()) << p.status();
      absl::StatusOr<Conv2dScheduleConfig> back = Conv2dConfigFromKnobs(*p, cpu);
      ASSERT_TRUE(back.ok()) << back.status();
      EXPECT_EQ(back->ToString(), def.ToString()) << space::ConfigToJson(*p);
    }
  }
}

TEST(Conv2dKnobsTest, ValidPointsFitTheRegistersAndSchedule) {
  const KnobConvCase c = kConvKnobCases[0];
  const Conv2dTensors t = KnobConvTensors(c);
  for (const CpuInfo& cpu : {Avx2Cpu(), testing::Avx512Cpu()}) {
    space::ConfigSpace space;
    ASSERT_TRUE(DefineConv2dKnobs(space, t, Window2d::Make(1, 1), cpu).ok());
    absl::StatusOr<int64_t> valid = space.CountValid();
    ASSERT_TRUE(valid.ok());
    EXPECT_GE(*valid, 500) << cpu.ToString();
    for (const space::Config& p : testing::Sample(space, 50, 9)) {
      absl::StatusOr<Conv2dScheduleConfig> k = Conv2dConfigFromKnobs(p, cpu);
      ASSERT_TRUE(k.ok());
      EXPECT_LE(k->reg_o * k->reg_w_vectors + k->reg_w_vectors + 1, cpu.vector_registers);
      EXPECT_LE(k->vector_lanes, cpu.Lanes(4));
      EXPECT_TRUE(ScheduleConv2d(*k, t).ok()) << k->ToString();
    }
  }
}

TEST(Conv2dKnobsTest, KnobsThatCannotMatterAreFixed) {
  // A 1x1 window without padding: no kernel-width loop to unroll, no padding to inline.
  const KnobConvCase c = kConvKnobCases[2];
  space::ConfigSpace space;
  ASSERT_TRUE(DefineConv2dKnobs(space, KnobConvTensors(c), Window2d::Make(2, 0), Avx2Cpu()).ok());
  EXPECT_EQ(space.knob(space.KnobPosition("unroll_kw")).size(), 1);
  EXPECT_EQ(space.knob(space.KnobPosition("pad_inline")).size(), 1);
  EXPECT_EQ(space.knob(space.KnobPosition("parallel")).size(), 2);
}

TEST(Conv2dKnobsTest, Errors) {
  space::ConfigSpace space;
  EXPECT_FALSE(DefineConv2dKnobs(space, Conv2dTensors(), Window2d(), Avx2Cpu()).ok());
  space::ConfigSpace other;
  ASSERT_TRUE(other.DefineChoice("x", {int64_t{1}}).ok());
  EXPECT_FALSE(Conv2dConfigFromKnobs(*other.Get(0), Avx2Cpu()).ok());
  EXPECT_FALSE(Conv2dKnobsFromConfig(other, Conv2dScheduleConfig()).ok());
}

}  // namespace
}  // namespace tunefarm::topi
