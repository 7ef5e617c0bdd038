// The blocked conv2d's knobs: the library default (its channel blocks included) is a point of
// every space and maps back unchanged; valid points fit the registers and schedule.
#include "compiler/topi/conv2d_nchwc_knobs.h"

#include <gtest/gtest.h>

#include "compiler/space/config_json.h"
#include "compiler/topi/static_shape.h"
#include "tests/unit/compiler/topi/knob_test_util.h"
#include "tests/unit/compiler/topi/topi_harness.h"

namespace tunefarm::topi {
namespace {

struct NchwcKnobCase {
  std::vector<int64_t> data, kernel;
  int64_t stride, pad;
};

const NchwcKnobCase kNchwcKnobCases[] = {
    {{1, 64, 56, 56}, {64, 64, 3, 3}, 1, 1},  {{1, 128, 28, 28}, {128, 128, 3, 3}, 1, 1},
    {{1, 512, 7, 7}, {512, 512, 3, 3}, 1, 1}, {{1, 64, 56, 56}, {128, 64, 1, 1}, 2, 0},
    {{1, 3, 224, 224}, {64, 3, 7, 7}, 2, 3},  {{2, 5, 11, 13}, {7, 5, 3, 3}, 1, 1}};

TEST(Conv2dNchwcKnobsTest, TheDefaultIsInEverySpaceAndMapsBackUnchanged) {
  for (const CpuInfo& cpu : testing::KnobCpus()) {
    for (const NchwcKnobCase& c : kNchwcKnobCases) {
      const Window2d window = Window2d::Make(c.stride, c.pad);
      const Conv2dNchwcScheduleConfig def = DefaultConv2dNchwcConfig(c.data, c.kernel, window, cpu);
      SCOPED_TRACE(cpu.ToString() + ": " + def.ToString());
      space::ConfigSpace space;
      ASSERT_TRUE(DefineConv2dNchwcKnobs(space, c.data, c.kernel, window, cpu).ok());
      absl::StatusOr<space::Config> p = Conv2dNchwcKnobsFromConfig(space, def);
      ASSERT_TRUE(p.ok()) << p.status();
      absl::StatusOr<Conv2dNchwcScheduleConfig> back = Conv2dNchwcConfigFromKnobs(*p, cpu);
      ASSERT_TRUE(back.ok()) << back.status();
      EXPECT_EQ(back->ToString(), def.ToString()) << space::ConfigToJson(*p);
    }
  }
}

TEST(Conv2dNchwcKnobsTest, ValidPointsFitTheRegistersAndSchedule) {
  const NchwcKnobCase c = kNchwcKnobCases[5];
  const Window2d window = Window2d::Make(c.stride, c.pad);
  for (const CpuInfo& cpu : {Avx2Cpu(), testing::Avx512Cpu()}) {
    space::ConfigSpace space;
    ASSERT_TRUE(DefineConv2dNchwcKnobs(space, c.data, c.kernel, window, cpu).ok());
    for (const space::Config& p : testing::Sample(space, 50, 4)) {
      absl::StatusOr<Conv2dNchwcScheduleConfig> k = Conv2dNchwcConfigFromKnobs(p, cpu);
      ASSERT_TRUE(k.ok());
      const int64_t vectors = k->oc_block / k->vector_lanes;
      EXPECT_EQ(k->oc_block % k->vector_lanes, 0);
      EXPECT_LE(k->reg_w * vectors + vectors + 1, cpu.vector_registers);
      const int64_t cb = CeilDiv(5, k->ic_block), ob = CeilDiv(7, k->oc_block);
      absl::StatusOr<Conv2dNchwcTensors> t = Conv2dNchwcCompute(
          testing::Placeholder({2, cb, 11, 13, k->ic_block}, "data"),
          testing::Placeholder({ob, cb, 3, 3, k->ic_block, k->oc_block}, "kernel"), window);
      ASSERT_TRUE(t.ok()) << t.status();
      EXPECT_TRUE(ScheduleConv2dNchwc(*k, *t).ok()) << k->ToString();
    }
  }
}

TEST(Conv2dNchwcKnobsTest, BlocksAreKnobsOfAResNetLayer) {
  const NchwcKnobCase c = kNchwcKnobCases[0];
  space::ConfigSpace space;
  ASSERT_TRUE(
      DefineConv2dNchwcKnobs(space, c.data, c.kernel, Window2d::Make(1, 1), testing::Avx512Cpu())
          .ok());
  EXPECT_GE(space.knob(space.KnobPosition("ic_block")).size(), 5);
  EXPECT_GE(space.knob(space.KnobPosition("oc_block")).size(), 3);
  EXPECT_GE(space.knob(space.KnobPosition("reg_w")).size(), 10);
  absl::StatusOr<int64_t> valid = space.CountValid();
  ASSERT_TRUE(valid.ok());
  EXPECT_GE(*valid, 1000);
}

TEST(Conv2dNchwcKnobsTest, Errors) {
  space::ConfigSpace space;
  EXPECT_EQ(DefineConv2dNchwcKnobs(space, {1, 3, 8}, {4, 3, 3, 3}, Window2d(), Avx2Cpu()).code(),
            absl::StatusCode::kInvalidArgument);
  space::ConfigSpace too_small;
  EXPECT_EQ(
      DefineConv2dNchwcKnobs(too_small, {1, 3, 2, 2}, {4, 3, 5, 5}, Window2d(), Avx2Cpu()).code(),
      absl::StatusCode::kInvalidArgument);
}

}  // namespace
}  // namespace tunefarm::topi
