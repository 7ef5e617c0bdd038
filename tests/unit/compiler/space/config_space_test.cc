// Knob definition, index <-> config, typed access and constraints.
#include "compiler/space/config_space.h"

#include <gtest/gtest.h>
#include <set>

namespace tunefarm::space {
namespace {

// tile: 6 splits of 12, order: 6 permutations, ann: 2, pack: 2 -> 144 configs.
void DefineSmall(ConfigSpace& s) {
  ASSERT_TRUE(s.DefineSplit("tile", {.extent = 12, .num_parts = 2}).ok());
  ASSERT_TRUE(s.DefineReorder("order", 3).ok());
  ASSERT_TRUE(s.DefineAnnotate("ann", {Annotation::kNone, Annotation::kVectorize}).ok());
  ASSERT_TRUE(s.DefineChoice("pack", {int64_t{0}, std::string("on")}).ok());
}

TEST(ConfigSpaceTest, SizeIsProductOfKnobSizes) {
  ConfigSpace s;
  EXPECT_EQ(s.size(), 1);
  DefineSmall(s);
  EXPECT_EQ(s.size(), 144);
  EXPECT_EQ(s.num_knobs(), 4);
  EXPECT_EQ(s.KnobPosition("ann"), 2);
  EXPECT_EQ(s.KnobPosition("nope"), -1);
}

TEST(ConfigSpaceTest, DuplicateNameIsAnError) {
  ConfigSpace s;
  DefineSmall(s);
  absl::Status st = s.DefineChoice("tile", {int64_t{1}});
  EXPECT_EQ(st.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_NE(st.message().find("tile"), absl::string_view::npos);
  EXPECT_EQ(s.size(), 144);
  EXPECT_FALSE(s.DefineChoice("", {int64_t{1}}).ok());
  EXPECT_FALSE(s.DefineSplit("bad", {.extent = -1}).ok());
  EXPECT_EQ(s.num_knobs(), 4);
}

TEST(ConfigSpaceTest, OverflowIsAnError) {
  ConfigSpace s;
  ASSERT_TRUE(s.DefineReorder("r0", 12).ok());
  ASSERT_TRUE(s.DefineReorder("r1", 12).ok());  // 12!^2 < 2^63 < 12!^3
  absl::Status st = s.DefineReorder("r2", 12);
  EXPECT_EQ(st.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_NE(st.message().find("r2"), absl::string_view::npos);
  EXPECT_EQ(s.num_knobs(), 2);
}

TEST(ConfigSpaceTest, IndexRoundTripsOverTheWholeSpace) {
  ConfigSpace s;
  DefineSmall(s);
  std::set<std::vector<int64_t>> seen;
  for (int64_t i = 0; i < s.size(); ++i) {
    absl::StatusOr<Config> c = s.Get(i);
    ASSERT_TRUE(c.ok());
    EXPECT_EQ(c->index(), i);
    absl::StatusOr<Config> back = s.FromKnobIndices(c->knob_indices());
    ASSERT_TRUE(back.ok());
    EXPECT_EQ(back->index(), i);
    EXPECT_TRUE(*back == *c);
    seen.insert(c->knob_indices());
  }
  EXPECT_EQ(seen.size(), 144u);
  // The first knob is the least significant digit.
  EXPECT_EQ(s.Get(1)->knob_indices(), (std::vector<int64_t>{1, 0, 0, 0}));
  EXPECT_EQ(s.Get(6)->knob_indices(), (std::vector<int64_t>{0, 1, 0, 0}));
  EXPECT_EQ(s.Get(-1).status().code(), absl::StatusCode::kOutOfRange);
  EXPECT_EQ(s.Get(144).status().code(), absl::StatusCode::kOutOfRange);
  EXPECT_EQ(s.FromKnobIndices({6, 0, 0, 0}).status().code(), absl::StatusCode::kOutOfRange);
  EXPECT_EQ(s.FromKnobIndices({0, 0}).status().code(), absl::StatusCode::kInvalidArgument);
}

TEST(ConfigSpaceTest, TypedAccess) {
  ConfigSpace s;
  DefineSmall(s);
  absl::StatusOr<Config> c = s.FromKnobIndices({2, 5, 1, 1});
  ASSERT_TRUE(c.ok());
  EXPECT_EQ(*c->SplitFactors("tile"), (std::vector<int64_t>{3, 4}));
  EXPECT_EQ(*c->Permutation("order"), (std::vector<int64_t>{2, 1, 0}));
  EXPECT_EQ(*c->AnnotationOf("ann"), Annotation::kVectorize);
  EXPECT_EQ(*c->ChoiceString("pack"), "on");
  EXPECT_EQ(std::get<std::string>(*c->Value("pack")), "on");
  EXPECT_EQ(*s.Get(0)->ChoiceInt("pack"), 0);

  EXPECT_EQ(c->SplitFactors("nope").status().code(), absl::StatusCode::kNotFound);
  EXPECT_EQ(c->Value("nope").status().code(), absl::StatusCode::kNotFound);
  EXPECT_EQ(c->SplitFactors("order").status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(c->Permutation("tile").status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(c->AnnotationOf("pack").status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(c->Choice("ann").status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(c->ChoiceInt("pack").status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(s.Get(0)->ChoiceString("pack").status().code(), absl::StatusCode::kInvalidArgument);
}

TEST(ConfigSpaceTest, ConstraintsDropConfigs) {
  ConfigSpace s;
  ASSERT_TRUE(s.DefineSplit("tile_x", {.extent = 16, .num_parts = 2}).ok());
  ASSERT_TRUE(s.DefineSplit("tile_y", {.extent = 16, .num_parts = 2}).ok());
  EXPECT_EQ(*s.CountValid(), 25);
  // A 4-byte tile of inner_x * inner_y floats must fit a 64-byte "cache".
  ASSERT_TRUE(s.AddConstraint("tile fits cache", [](const Config& c) {
                 return c.SplitFactors("tile_x")->back() * c.SplitFactors("tile_y")->back() * 4 <=
                        64;
               }).ok());
  EXPECT_EQ(s.size(), 25);         // size() stays the index range
  EXPECT_EQ(*s.CountValid(), 15);  // pairs (2^a, 2^b) with a + b <= 4
  EXPECT_EQ(s.CountValid(10).status().code(), absl::StatusCode::kResourceExhausted);

  absl::StatusOr<Config> big = s.FromKnobIndices({0, 0});  // [1,16] x [1,16]
  ASSERT_TRUE(big.ok());
  EXPECT_FALSE(s.IsValid(*big));
  absl::Status st = s.CheckValid(*big);
  EXPECT_EQ(st.code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_NE(st.message().find("tile fits cache"), absl::string_view::npos);
  EXPECT_TRUE(s.IsValid(*s.Get(24)));  // [16,1] x [16,1]

  EXPECT_FALSE(s.AddConstraint("tile fits cache", [](const Config&) { return true; }).ok());
  EXPECT_FALSE(s.AddConstraint("empty", nullptr).ok());
  ConfigSpace other;
  EXPECT_FALSE(other.CheckValid(*s.Get(0)).ok());
}

}  // namespace
}  // namespace tunefarm::space
