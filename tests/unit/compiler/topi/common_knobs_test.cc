// The knob helpers the operator families share: value lists, nearest-point mapping and its
// errors, and position-based views for constraints.
#include "compiler/topi/common_knobs.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "tests/unit/compiler/topi/knob_test_util.h"

namespace tunefarm::topi {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;

TEST(CommonKnobsTest, KnobValuesKeepsTheDefaultSortedAndUnique) {
  EXPECT_THAT(KnobValues({8, 1, 4, 2, 4}, 5, [](int64_t v) { return v < 6; }),
              ElementsAre(1, 2, 4, 5));
  EXPECT_THAT(KnobValues({1, 2}, 9, [](int64_t) { return false; }), ElementsAre(9));
}

TEST(CommonKnobsTest, VectorLaneChoicesNarrowToFour) {
  EXPECT_THAT(VectorLaneChoices(testing::Avx512Cpu()), ElementsAre(4, 8, 16));
  EXPECT_THAT(VectorLaneChoices(Avx2Cpu()), ElementsAre(4, 8));
  EXPECT_THAT(VectorLaneChoices(testing::NeonCpu()), ElementsAre(4));
}

TEST(CommonKnobsTest, NearestConfigAndViews) {
  space::ConfigSpace space;
  ASSERT_TRUE(DefineIntKnob(space, "tile", {4, 8, 16}).ok());
  ASSERT_TRUE(space.DefineChoice("order", {"mn", "nm"}).ok());
  ASSERT_TRUE(DefineFlagKnob(space, "flag", false, true).ok());
  KnobView tile, order;
  ASSERT_TRUE(ViewKnobs(space, {{"tile", &tile}, {"order", &order}}).ok());
  ASSERT_TRUE(space
                  .AddConstraint("no 16 with nm",
                                 [=](const space::Config& c) {
                                   return !(tile.Int(c) == 16 && order.Is(c, "nm"));
                                 })
                  .ok());
  absl::StatusOr<space::Config> c =
      NearestConfig(space, {{"tile", int64_t{7}}, {"order", "nm"}, {"flag", int64_t{1}}}, "op");
  ASSERT_TRUE(c.ok()) << c.status();
  EXPECT_EQ(*c->ChoiceInt("tile"), 8);
  EXPECT_EQ(*c->ChoiceString("order"), "nm");
  EXPECT_EQ(*c->ChoiceInt("flag"), 1);
  EXPECT_EQ(tile.Int(*c), 8);
  EXPECT_TRUE(order.Is(*c, "nm"));
  KnobReader r(*c);
  EXPECT_EQ(r.Int("tile"), 8);
  EXPECT_TRUE(r.Flag("flag"));
  EXPECT_EQ(r.Name("order"), "nm");
  EXPECT_TRUE(r.ok());
  EXPECT_EQ(r.Int("missing"), 0);
  EXPECT_FALSE(r.ok());

  // A nearest point that breaks a constraint, a missing knob, an unknown knob or name.
  absl::Status st =
      NearestConfig(space, {{"tile", int64_t{100}}, {"order", "nm"}, {"flag", int64_t{1}}}, "op")
          .status();
  EXPECT_EQ(st.code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_THAT(st.message(), HasSubstr("no 16 with nm"));
  st = NearestConfig(space, {{"tile", int64_t{4}}, {"order", "nm"}}, "op").status();
  EXPECT_THAT(st.message(), HasSubstr("no value given for knob 'flag'"));
  st = NearestConfig(space, {{"tiles", int64_t{4}}}, "op").status();
  EXPECT_THAT(st.message(), HasSubstr("no knob 'tiles'"));
  st = NearestConfig(space, {{"tile", int64_t{4}}, {"order", "km"}, {"flag", int64_t{1}}}, "op")
           .status();
  EXPECT_THAT(st.message(), HasSubstr("'order' has no value like"));
  EXPECT_FALSE(KnobView::Of(space, "nothing").ok());
}

}  // namespace
}  // namespace tunefarm::topi
