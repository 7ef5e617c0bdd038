// OneKnobNeighbors: every neighbour differs in exactly one knob and is valid; small knobs give all
// their other values, large ones a capped, repeat-free draw.
#include "tuner/search/one_knob_neighbors.h"

#include <gtest/gtest.h>
#include <set>

#include "tests/unit/tuner/search/search_test_util.h"
#include "tuner/search/search_history.h"

namespace tunefarm::tuner {
namespace {

TEST(OneKnobNeighborsTest, AllValidConfigsOneKnobAway) {
  auto space = testing::MakeSyntheticSpace();
  // A config in the middle of the space, so that some of its neighbours break the constraint.
  absl::StatusOr<space::Config> center = space->Get(space->size() / 2);
  ASSERT_TRUE(center.ok());
  ASSERT_TRUE(space->IsValid(*center));
  std::mt19937_64 rng(1);
  absl::StatusOr<std::vector<space::Config>> around = OneKnobNeighbors(*space, *center, 64, rng);
  ASSERT_TRUE(around.ok()) << around.status();
  // Brute force: every valid config of the space at distance one.
  std::set<int64_t> want;
  for (int64_t i = 0; i < space->size(); ++i) {
    absl::StatusOr<space::Config> c = space->Get(i);
    ASSERT_TRUE(c.ok());
    if (space->IsValid(*c) && KnobDistance(c->knob_indices(), center->knob_indices()) == 1) {
      want.insert(i);
    }
  }
  std::set<int64_t> got;
  for (const space::Config& c : *around) EXPECT_TRUE(got.insert(c.index()).second);
  EXPECT_EQ(got, want);
  EXPECT_GE(want.size(), 10u);
}

TEST(OneKnobNeighborsTest, LargeKnobsAreCappedWithoutRepeats) {
  space::ConfigSpace s;
  ASSERT_TRUE(s.DefineReorder("order", 6).ok());  // 720 orders
  ASSERT_TRUE(s.DefineChoice("unroll", {int64_t{0}, int64_t{4}, int64_t{16}}).ok());
  absl::StatusOr<space::Config> center = s.Get(5);
  ASSERT_TRUE(center.ok());
  std::mt19937_64 rng(3);
  absl::StatusOr<std::vector<space::Config>> around = OneKnobNeighbors(s, *center, 10, rng);
  ASSERT_TRUE(around.ok()) << around.status();
  ASSERT_EQ(around->size(), 12u);  // 10 of the 719 other orders, both other unroll values
  std::set<int64_t> seen;
  for (const space::Config& c : *around) {
    EXPECT_EQ(KnobDistance(c.knob_indices(), center->knob_indices()), 1);
    EXPECT_TRUE(seen.insert(c.index()).second);
  }
}

}  // namespace
}  // namespace tunefarm::tuner
