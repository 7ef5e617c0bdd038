// The memory planner on hand-made lifetimes: exact arena sizes for a chain, a diamond and a
// residual block, and no two buffers that are live at the same time sharing a byte.
#include "runtime/graph/memory_plan.h"

#include <gtest/gtest.h>
#include <random>

namespace tunefarm::runtime {
namespace {

MemoryPlan Plan(const std::vector<BufferLifetime>& buffers) {
  MemoryPlan plan;
  std::string error;
  EXPECT_TRUE(PlanMemory(buffers, &plan, &error)) << error;
  return plan;
}

// Every pair whose lifetimes intersect occupies disjoint bytes; all offsets are aligned and
// inside the arena.
void ExpectNoOverlap(const std::vector<BufferLifetime>& buffers, const MemoryPlan& plan) {
  ASSERT_EQ(plan.offsets.size(), buffers.size());
  for (size_t i = 0; i < buffers.size(); ++i) {
    EXPECT_EQ(plan.offsets[i] % kArenaAlignment, 0u) << "buffer " << i;
    EXPECT_LE(plan.offsets[i] + buffers[i].bytes, plan.stats.arena_bytes) << "buffer " << i;
    for (size_t j = 0; j < i; ++j) {
      if (!LifetimesIntersect(buffers[i], buffers[j])) continue;
      bool disjoint = plan.offsets[i] + buffers[i].bytes <= plan.offsets[j] ||
                      plan.offsets[j] + buffers[j].bytes <= plan.offsets[i];
      EXPECT_TRUE(disjoint) << "buffers " << j << " and " << i << " are live together but share "
                            << "bytes at offsets " << plan.offsets[j] << " and " << plan.offsets[i];
    }
  }
}

TEST(MemoryPlanTest, AChainReusesTwoBuffersAlternately) {
  // step s writes buffer s and reads buffer s-1.
  std::vector<BufferLifetime> chain = {{100, 0, 1}, {100, 1, 2}, {100, 2, 3}, {100, 3, 4}};
  MemoryPlan plan = Plan(chain);
  ExpectNoOverlap(chain, plan);
  EXPECT_EQ(plan.stats.arena_bytes, 256u);  // two 128-byte slots
  EXPECT_EQ(plan.stats.unplanned_bytes, 512u);
  EXPECT_EQ(plan.stats.num_buffers, 4);
  EXPECT_EQ(plan.offsets[0], plan.offsets[2]);
  EXPECT_EQ(plan.offsets[1], plan.offsets[3]);
}

TEST(MemoryPlanTest, ADiamondKeepsBothBranchesApart) {
  // A feeds B and C, which both feed D: B and C are live together, D can take A's place.
  std::vector<BufferLifetime> diamond = {{256, 0, 2}, {128, 1, 3}, {128, 2, 3}, {256, 3, 3}};
  MemoryPlan plan = Plan(diamond);
  ExpectNoOverlap(diamond, plan);
  EXPECT_EQ(plan.stats.arena_bytes, 512u);
  EXPECT_EQ(plan.stats.unplanned_bytes, 768u);
  EXPECT_EQ(plan.offsets[3], plan.offsets[0]);
}

TEST(MemoryPlanTest, AResidualInputStaysLiveAcrossTheBlock) {
  // x (input, pinned) -> a -> b -> c; out = c + x (output, pinned).
  std::vector<BufferLifetime> residual = {
      {128, 0, 3}, {256, 0, 1}, {256, 1, 2}, {256, 2, 3}, {128, 0, 3}};
  MemoryPlan plan = Plan(residual);
  ExpectNoOverlap(residual, plan);
  EXPECT_EQ(plan.stats.arena_bytes, 768u);
  EXPECT_EQ(plan.stats.unplanned_bytes, 1024u);
  EXPECT_EQ(plan.offsets[3], plan.offsets[1]);  // c reuses a's bytes
}

TEST(MemoryPlanTest, BestFitTakesTheSmallestGapThatHolds) {
  // At step 2, B, C and F are live and leave gaps of 256 bytes (A's, dead after step 0) and 128
  // bytes (E's, dead after step 1): X goes into the smaller one, which first fit would not pick.
  std::vector<BufferLifetime> buffers = {
      {256, 0, 0},  // A: 0..256
      {256, 0, 2},  // B: 256..512
      {128, 0, 2},  // C: 512..640
      {128, 0, 1},  // E: 640..768
      {128, 0, 2},  // F: 768..896
      {128, 2, 2},  // X
  };
  MemoryPlan plan = Plan(buffers);
  ExpectNoOverlap(buffers, plan);
  EXPECT_EQ(plan.offsets[5], 640u);
  EXPECT_EQ(plan.stats.arena_bytes, 896u);
}

TEST(MemoryPlanTest, RandomLifetimesNeverOverlapAndNeverExceedTheSum) {
  std::mt19937 rng(7);
  for (int trial = 0; trial < 50; ++trial) {
    std::vector<BufferLifetime> buffers(1 + rng() % 40);
    for (BufferLifetime& b : buffers) {
      b.bytes = 1 + rng() % 5000;
      b.first_step = rng() % 30;
      b.last_step = b.first_step + rng() % 6;
    }
    MemoryPlan plan = Plan(buffers);
    ExpectNoOverlap(buffers, plan);
    EXPECT_LE(plan.stats.arena_bytes, plan.stats.unplanned_bytes);
  }
}

TEST(MemoryPlanTest, EmptyAndOverflowingPlans) {
  MemoryPlan plan = Plan({});
  EXPECT_EQ(plan.stats.arena_bytes, 0u);
  std::string error;
  std::vector<BufferLifetime> huge = {{~uint64_t{0} - 10, 0, 0}};
  EXPECT_FALSE(PlanMemory(huge, &plan, &error));
  EXPECT_NE(error.find("overflow"), std::string::npos) << error;
  huge = {{uint64_t{1} << 63, 0, 0}, {uint64_t{1} << 63, 0, 0}};
  EXPECT_FALSE(PlanMemory(huge, &plan, &error));
  EXPECT_NE(error.find("overflow"), std::string::npos) << error;
}

}  // namespace
}  // namespace tunefarm::runtime

namespace tunefarm::runtime {
namespace {

TEST(MemoryPlanTest, AWiderAlignmentPlacesEveryBufferOnItsMultiples) {
  // An OpenCL device's sub-buffers start at multiples of its base alignment (128 bytes on PoCL).
  std::mt19937 rng(3);
  std::vector<BufferLifetime> buffers;
  for (int i = 0; i < 40; ++i) {
    const int64_t first = static_cast<int64_t>(rng() % 20);
    buffers.push_back({1 + rng() % 1000, first, first + static_cast<int64_t>(rng() % 5)});
  }
  for (uint64_t alignment : {64u, 128u, 1024u}) {
    MemoryPlan plan;
    std::string error;
    ASSERT_TRUE(PlanMemory(buffers, &plan, &error, alignment)) << error;
    ExpectNoOverlap(buffers, plan);
    for (uint64_t offset : plan.offsets) EXPECT_EQ(offset % alignment, 0u) << alignment;
  }
  MemoryPlan plan;
  std::string error;
  EXPECT_FALSE(PlanMemory(buffers, &plan, &error, 96));
  EXPECT_NE(error.find("multiple of 64"), std::string::npos) << error;
}

}  // namespace
}  // namespace tunefarm::runtime
