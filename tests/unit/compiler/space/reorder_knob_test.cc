// Permutation ranking and candidate lists.
#include "compiler/space/reorder_knob.h"

#include <gtest/gtest.h>
#include <set>

namespace tunefarm::space {
namespace {

TEST(ReorderKnobTest, AllPermutationsRoundTripInLexicographicOrder) {
  auto k = ReorderKnob::AllPermutations("order", 4);
  ASSERT_TRUE(k.ok());
  ASSERT_EQ((*k)->size(), 24);
  std::set<std::vector<int64_t>> seen;
  for (int64_t i = 0; i < (*k)->size(); ++i) {
    std::vector<int64_t> p = (*k)->PermutationAt(i);
    if (i > 0) {
      EXPECT_LT((*k)->PermutationAt(i - 1), p);
    }
    EXPECT_EQ(*(*k)->IndexOf(p), i);
    seen.insert(p);
  }
  EXPECT_EQ(seen.size(), 24u);
  EXPECT_EQ((*k)->PermutationAt(0), (std::vector<int64_t>{0, 1, 2, 3}));
  EXPECT_EQ((*k)->PermutationAt(23), (std::vector<int64_t>{3, 2, 1, 0}));
}

TEST(ReorderKnobTest, Candidates) {
  auto k = ReorderKnob::Candidates("order", {{0, 2, 1}, {2, 1, 0}});
  ASSERT_TRUE(k.ok());
  EXPECT_EQ((*k)->size(), 2);
  EXPECT_EQ(*(*k)->IndexOf(std::vector<int64_t>{2, 1, 0}), 1);
  EXPECT_FALSE((*k)->IndexOf(std::vector<int64_t>{0, 1, 2}).ok());
}

TEST(ReorderKnobTest, RejectsBadInput) {
  EXPECT_FALSE(ReorderKnob::AllPermutations("o", 0).ok());
  EXPECT_FALSE(ReorderKnob::AllPermutations("o", 13).ok());
  EXPECT_FALSE(ReorderKnob::Candidates("o", {}).ok());
  EXPECT_FALSE(ReorderKnob::Candidates("o", {{0, 0}}).ok());
  EXPECT_FALSE(ReorderKnob::Candidates("o", {{0, 1}, {0, 1, 2}}).ok());
  EXPECT_FALSE(ReorderKnob::Candidates("o", {{1, 0}, {1, 0}}).ok());
  auto k = ReorderKnob::AllPermutations("o", 3);
  EXPECT_FALSE((*k)->IndexOf(std::vector<int64_t>{0, 1, 3}).ok());
  EXPECT_FALSE((*k)->IndexOf(std::vector<int64_t>{0, 1}).ok());
  EXPECT_FALSE((*k)->IndexOf(int64_t{0}).ok());
}

}  // namespace
}  // namespace tunefarm::space
