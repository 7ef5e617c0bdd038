// The GEMM knobs: the library default is a point of every space and maps back unchanged, the
// constraints hold on every valid point, and the spaces have a size worth tuning.
#include "compiler/topi/gemm_knobs.h"

#include <gtest/gtest.h>

#include "compiler/space/config_json.h"
#include "compiler/topi/loop_tiling.h"
#include "tests/unit/compiler/topi/knob_test_util.h"
#include "tests/unit/compiler/topi/topi_harness.h"

namespace tunefarm::topi {
namespace {

struct GemmShape {
  int64_t batch, m, n, k;
};

const GemmShape kShapes[] = {{1, 1024, 1024, 1024}, {1, 128, 3072, 768}, {1, 1, 1000, 2048},
                             {1, 2, 64, 5},         {12, 128, 64, 128},  {1, 37, 45, 29},
                             {1, 2, 5, 3},          {4, 100, 7, 1}};

TEST(GemmKnobsTest, TheDefaultIsInEverySpaceAndMapsBackUnchanged) {
  for (const CpuInfo& cpu : testing::KnobCpus()) {
    for (const GemmShape& s : kShapes) {
      for (WeightLayout layout : {WeightLayout::kKN, WeightLayout::kNK}) {
        const GemmScheduleConfig def = DefaultGemmConfig(s.batch, s.m, s.n, s.k, cpu, layout);
        SCOPED_TRACE(::testing::Message() << cpu.ToString() << ", " << s.batch << "x" << s.m << "x"
                                          << s.n << "x" << s.k << ": " << def.ToString());
        space::ConfigSpace space;
        ASSERT_TRUE(DefineGemmKnobs(space, s.batch, s.m, s.n, s.k, cpu, layout).ok());
        absl::StatusOr<space::Config> c = GemmKnobsFromConfig(space, def);
        ASSERT_TRUE(c.ok()) << c.status();
        absl::StatusOr<GemmScheduleConfig> back = GemmConfigFromKnobs(*c, cpu);
        ASSERT_TRUE(back.ok()) << back.status();
        EXPECT_EQ(back->ToString(), def.ToString()) << space::ConfigToJson(*c);
        EXPECT_EQ(back->vector_lanes, def.vector_lanes);
      }
    }
  }
}

TEST(GemmKnobsTest, ValidPointsKeepTheirTilesInRegistersAndWhole) {
  for (const CpuInfo& cpu : {Avx2Cpu(), testing::Avx512Cpu()}) {
    space::ConfigSpace space;
    ASSERT_TRUE(DefineGemmKnobs(space, 1, 200, 300, 64, cpu, WeightLayout::kKN).ok());
    for (const space::Config& c : testing::Sample(space, 300, 7)) {
      absl::StatusOr<GemmScheduleConfig> g = GemmConfigFromKnobs(c, cpu);
      ASSERT_TRUE(g.ok());
      SCOPED_TRACE(g->ToString());
      EXPECT_LE(g->reg_m * g->reg_n_vectors + g->reg_n_vectors + 1, cpu.vector_registers);
      EXPECT_EQ(g->tile_m % g->reg_m, 0);
      EXPECT_EQ(g->tile_n % g->reg_n(), 0);
      EXPECT_LE(g->tile_m, RoundUpTo(200, g->reg_m));
      EXPECT_LE(g->tile_n, RoundUpTo(300, g->reg_n()));
      if (g->accumulator == GemmAccumulator::kRegisterTile) {
        EXPECT_EQ(g->tile_k, 0);
      }
      EXPECT_TRUE(!g->pack_weight_at_block || g->pack_weight);
    }
  }
}

TEST(GemmKnobsTest, SpacesAreWorthTuning) {
  for (const CpuInfo& cpu : {Avx2Cpu(), testing::Avx512Cpu()}) {
    space::ConfigSpace space;
    ASSERT_TRUE(DefineGemmKnobs(space, 1, 40, 48, 24, cpu, WeightLayout::kKN).ok());
    absl::StatusOr<int64_t> valid = space.CountValid();
    ASSERT_TRUE(valid.ok()) << valid.status();
    EXPECT_GE(*valid, 1000) << cpu.ToString();
    EXPECT_LE(*valid, 1000000) << cpu.ToString();
  }
}

TEST(GemmKnobsTest, EveryKnobIsAllowedToVary) {
  space::ConfigSpace space;
  ASSERT_TRUE(DefineGemmKnobs(space, 1, 1024, 1024, 1024, Avx2Cpu(), WeightLayout::kKN).ok());
  for (const char* knob :
       {"reg_m", "reg_n_vectors", "tile_m", "tile_n", "accumulator", "tile_k", "order",
        "pack_weight", "pack_weight_at_block", "pack_input", "unroll_k", "parallel"}) {
    const int pos = space.KnobPosition(knob);
    ASSERT_GE(pos, 0) << knob;
    EXPECT_GE(space.knob(pos).size(), 2) << knob;
  }
}

TEST(GemmKnobsTest, ValidPointsSchedule) {
  space::ConfigSpace space;
  ASSERT_TRUE(DefineGemmKnobs(space, 2, 19, 33, 12, Avx2Cpu(), WeightLayout::kNK).ok());
  for (const space::Config& c : testing::Sample(space, 30, 3)) {
    absl::StatusOr<GemmScheduleConfig> g = GemmConfigFromKnobs(c, Avx2Cpu());
    ASSERT_TRUE(g.ok());
    absl::StatusOr<GemmTensors> t = BatchMatmulCompute(testing::Placeholder({2, 19, 12}, "A"),
                                                       testing::Placeholder({2, 33, 12}, "B"),
                                                       /*transpose_b=*/true, g->Layout());
    ASSERT_TRUE(t.ok()) << t.status();
    absl::StatusOr<ScheduledOp> op = ScheduleGemm(*g, *t);
    EXPECT_TRUE(op.ok()) << g->ToString() << ": " << op.status();
  }
}

TEST(GemmKnobsTest, AWeightPackedAtBuildTimeFixesTheTileWidthAndEveryPointSchedulesIt) {
  for (const CpuInfo& cpu : {Avx2Cpu(), testing::Avx512Cpu()}) {
    const int64_t block = 2 * cpu.Lanes(4);
    space::ConfigSpace space;
    ASSERT_TRUE(DefineGemmKnobs(space, 1, 37, 4 * block, 24, cpu, WeightLayout::kKN, block).ok());
    const GemmScheduleConfig def = DefaultPackedGemmConfig(37, 4 * block, 24, cpu, block);
    absl::StatusOr<space::Config> d = GemmKnobsFromConfig(space, def);
    ASSERT_TRUE(d.ok()) << d.status();
    for (const space::Config& c : testing::Sample(space, 20, 5)) {
      absl::StatusOr<GemmScheduleConfig> g = GemmConfigFromKnobs(c, cpu);
      ASSERT_TRUE(g.ok());
      EXPECT_EQ(g->reg_n(), block);
      EXPECT_TRUE(g->pack_weight && !g->pack_weight_at_block && !g->pack_input);
      absl::StatusOr<GemmTensors> t = PackedMatmulCompute(
          testing::Placeholder({37, 24}, "A"), testing::Placeholder({4, 24, block}, "W"));
      ASSERT_TRUE(t.ok()) << t.status();
      absl::StatusOr<ScheduledOp> op = ScheduleGemm(*g, *t);
      EXPECT_TRUE(op.ok()) << g->ToString() << ": " << op.status();
    }
  }
  space::ConfigSpace bad;
  EXPECT_FALSE(DefineGemmKnobs(bad, 1, 8, 40, 8, Avx2Cpu(), WeightLayout::kKN, 16).ok());
}

TEST(GemmKnobsTest, NearestPointOfAnOffGridConfig) {
  space::ConfigSpace space;
  ASSERT_TRUE(DefineGemmKnobs(space, 1, 512, 512, 512, Avx2Cpu(), WeightLayout::kKN).ok());
  GemmScheduleConfig c = DefaultMatmulConfig(512, 512, 512, Avx2Cpu());
  c.tile_m = 100;  // between 96 and 128 (with reg_m 6: 96 is whole tiles)
  c.unroll_k = 3;  // nearer 4 than 1
  absl::StatusOr<space::Config> p = GemmKnobsFromConfig(space, c);
  ASSERT_TRUE(p.ok()) << p.status();
  EXPECT_EQ(*p->ChoiceInt("tile_m"), 96);
  EXPECT_EQ(*p->ChoiceInt("unroll_k"), 4);
  // A point that breaks a constraint is an error, not a silent substitute.
  c.tile_m = 128;  // not whole 6-row tiles
  EXPECT_EQ(GemmKnobsFromConfig(space, c).status().code(), absl::StatusCode::kFailedPrecondition);
}

TEST(GemmKnobsTest, Errors) {
  space::ConfigSpace space;
  EXPECT_EQ(DefineGemmKnobs(space, 1, 0, 4, 4, Avx2Cpu(), WeightLayout::kKN).code(),
            absl::StatusCode::kInvalidArgument);
  space::ConfigSpace other;
  ASSERT_TRUE(other.DefineChoice("x", {int64_t{1}}).ok());
  absl::StatusOr<space::Config> c = other.Get(0);
  ASSERT_TRUE(c.ok());
  EXPECT_FALSE(GemmConfigFromKnobs(*c, Avx2Cpu()).ok());
  EXPECT_EQ(GemmKnobsFromConfig(other, GemmScheduleConfig()).status().code(),
            absl::StatusCode::kInvalidArgument);
}

}  // namespace
}  // namespace tunefarm::topi
