// Knob features: split factors as log2, permutations as entries, annotation and choice indices.
#include "tuner/search/knob_features.h"

#include <cmath>
#include <gtest/gtest.h>

namespace tunefarm::tuner {
namespace {

TEST(KnobFeaturesTest, EveryKnobKindHasFixedWidthAndExactValues) {
  space::ConfigSpace s;
  ASSERT_TRUE(s.DefineSplit("tile", {.extent = 64, .num_parts = 3}).ok());
  ASSERT_TRUE(s.DefineReorder("order", 3).ok());
  ASSERT_TRUE(s.DefineAnnotate("ann", {space::Annotation::kNone, space::Annotation::kUnroll,
                                       space::Annotation::kVectorize})
                  .ok());
  ASSERT_TRUE(s.DefineChoice("pick", {int64_t{8}, std::string("nchw")}).ok());
  ASSERT_EQ(KnobFeatureLength(s), 3 + 3 + 1 + 2);
  absl::StatusOr<space::Config> c =
      s.FromKnobIndices({*s.knob(0).IndexOf(std::vector<int64_t>{2, 4, 8}),
                         *s.knob(1).IndexOf(std::vector<int64_t>{2, 0, 1}), 2, 0});
  ASSERT_TRUE(c.ok()) << c.status();
  EXPECT_EQ(KnobFeatureVector(*c),
            (std::vector<float>{1, 2, 3, 2, 0, 1, 2, 0, static_cast<float>(std::log2(9.0))}));
  absl::StatusOr<space::Config> d = s.FromKnobIndices({0, 0, 0, 1});
  ASSERT_TRUE(d.ok());
  std::vector<float> fd = KnobFeatureVector(*d);
  ASSERT_EQ(fd.size(), 9u);
  EXPECT_EQ(fd[7], 1);  // the string choice: its index, and 0 for the value
  EXPECT_EQ(fd[8], 0);
}

}  // namespace
}  // namespace tunefarm::tuner
