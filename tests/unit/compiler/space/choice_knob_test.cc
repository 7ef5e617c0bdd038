// Plain int/string choices.
#include "compiler/space/choice_knob.h"

#include <gtest/gtest.h>

namespace tunefarm::space {
namespace {

TEST(ChoiceKnobTest, MixedValues) {
  auto k = ChoiceKnob::Make("c", {int64_t{0}, int64_t{16}, std::string("NCHWc")});
  ASSERT_TRUE(k.ok());
  EXPECT_EQ((*k)->size(), 3);
  EXPECT_EQ(std::get<int64_t>((*k)->ValueAt(1)), 16);
  EXPECT_EQ(*(*k)->IndexOf(std::string("NCHWc")), 2);
  EXPECT_EQ(*(*k)->IndexOf(int64_t{0}), 0);
  EXPECT_FALSE((*k)->IndexOf(std::string("16")).ok());  // "16" is not 16
  EXPECT_FALSE((*k)->IndexOf(std::vector<int64_t>{16}).ok());
}

TEST(ChoiceKnobTest, RejectsEmptyAndRepeats) {
  EXPECT_FALSE(ChoiceKnob::Make("c", {}).ok());
  EXPECT_FALSE(ChoiceKnob::Make("c", {int64_t{1}, int64_t{1}}).ok());
}

}  // namespace
}  // namespace tunefarm::space
