// The layout choice without a graph: what an assignment of blocks costs and runs, the local
// search (stage moves before single ones, never worse than its start, errors passed on), its
// checks, and its compact JSON.
#include "tuner/layout_choice.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <string>

#include "absl/strings/str_cat.h"
#include "tests/unit/tuner/residual_layout_choice.h"

namespace tunefarm::tuner {
namespace {

using ::testing::HasSubstr;

LayoutChoice Residual() { return testing::ResidualLayoutChoice(); }

// Eights are faster, but a conv alone in eights pays a 1 ms transform at the add.
std::vector<double> EightsTogether() {
  return {3e-3, 1e-3, 3e-3, 2.5e-3, 1e-3, 2.5e-3, 1e-3, 1e-3};
}

TEST(LayoutChoiceTest, AnAssignmentCostsTheFastestHoldingUseOfEverySiteAndRunsIt) {
  const LayoutChoice c = Residual();
  std::vector<int> runs;
  LayoutCost rule = CostOfAssignment(c, {16, 16}, EightsTogether(), &runs);
  EXPECT_EQ(rule.unmeasured, 0);
  EXPECT_NEAR(rule.seconds, 6e-3, 1e-15);
  EXPECT_EQ(runs, (std::vector<int>{1, 0, 1, 0, 0, 0, 0, 0}));
  LayoutCost mixed = CostOfAssignment(c, {8, 16}, EightsTogether(), &runs);
  EXPECT_NEAR(mixed.seconds, (1 + 2.5 + 1) * 1e-3, 1e-15);
  EXPECT_EQ(runs, (std::vector<int>{0, 1, 0, 0, 0, 1, 1, 0}));
  // A site whose holding uses have no time counts as unmeasured; an optional site that holds
  // nothing costs nothing.
  std::vector<double> missing = EightsTogether();
  missing[4] = 0;
  LayoutCost eights = CostOfAssignment(c, {8, 8}, missing, &runs);
  EXPECT_EQ(eights.unmeasured, 1);
  EXPECT_NEAR(eights.seconds, 1e-3, 1e-15);
}

TEST(LayoutChoiceTest, TheSearchMovesAStageWhereSingleMovesEachPayATransform) {
  const BlockAssignment chosen = ChooseBlocks(Residual(), EightsTogether());
  EXPECT_EQ(chosen.blocks, (std::vector<int64_t>{8, 8}));
  EXPECT_NEAR(chosen.cost.seconds, 2e-3, 1e-15);
  // In stages of their own, c1 moves first (1 + 2.5 + 1 ms against the rule's 6), then c2
  // follows (2 ms).
  LayoutChoice apart = Residual();
  apart.vars[1].stage = 32;
  EXPECT_EQ(ChooseBlocks(apart, EightsTogether()).blocks, (std::vector<int64_t>{8, 8}));
  // Transforms dearer than the eights save: no single move pays, the stage move does.
  std::vector<double> dear = EightsTogether();
  dear[6] = dear[7] = 4e-3;
  EXPECT_EQ(ChooseBlocks(apart, dear).blocks, (std::vector<int64_t>{16, 16}));
  EXPECT_EQ(ChooseBlocks(Residual(), dear).blocks, (std::vector<int64_t>{8, 8}));
}

// A saving within the records' noise is no reason to leave the rule's blocks; one beyond it is,
// and measuring a site that was unmeasured always is.
TEST(LayoutChoiceTest, TheSearchTakesNoMoveThatSavesLessThanTheMargin) {
  auto search = [](LayoutCost at8) {
    return SearchBlocks({{8, 16}}, {16}, {{0}}, [at8](const std::vector<int64_t>& b) {
      return absl::StatusOr<LayoutCost>(b[0] == 8 ? at8 : LayoutCost{1, 10.0});
    });
  };
  const double small = 10.0 * (1 - kMinLayoutMoveSaving / 2);
  const double large = 10.0 * (1 - 2 * kMinLayoutMoveSaving);
  EXPECT_EQ(search(LayoutCost{1, small})->blocks, (std::vector<int64_t>{16}));
  EXPECT_EQ(search(LayoutCost{1, large})->blocks, (std::vector<int64_t>{8}));
  EXPECT_EQ(search(LayoutCost{0, 12.0})->blocks, (std::vector<int64_t>{8}));
  EXPECT_EQ(search(LayoutCost{2, 1.0})->blocks, (std::vector<int64_t>{16}));
}

TEST(LayoutChoiceTest, TheSearchNeverEndsAboveItsStartAndPassesErrorsOn) {
  int calls = 0;
  absl::StatusOr<BlockAssignment> flat =
      SearchBlocks({{8, 16}, {8, 16}}, {16, 16}, {{0, 1}}, [&](const std::vector<int64_t>&) {
        ++calls;
        return absl::StatusOr<LayoutCost>(LayoutCost{0, 1.0});
      });
  ASSERT_TRUE(flat.ok());
  EXPECT_EQ(flat->blocks, (std::vector<int64_t>{16, 16})) << "no move lowers an equal cost";
  EXPECT_EQ(flat->evaluated, calls);
  absl::StatusOr<BlockAssignment> broken =
      SearchBlocks({{8, 16}}, {16}, {{0}}, [](const std::vector<int64_t>& b) {
        if (b[0] == 8) return absl::StatusOr<LayoutCost>(absl::UnavailableError("store gone"));
        return absl::StatusOr<LayoutCost>(LayoutCost{});
      });
  EXPECT_EQ(broken.status().code(), absl::StatusCode::kUnavailable);
}

TEST(LayoutChoiceTest, ChecksNameTheFirstProblem) {
  EXPECT_TRUE(ValidateLayoutChoice(Residual(), 8).ok());
  EXPECT_TRUE(ValidateLayoutChoice({}, 0).ok()) << "no layout choice";
  auto problem = [](LayoutChoice c, int tasks) {
    return std::string(ValidateLayoutChoice(c, tasks).message());
  };
  EXPECT_THAT(problem(Residual(), 7), HasSubstr("use 7 names task 7 of 7"));
  LayoutChoice c = Residual();
  c.vars[0].rule = 32;
  EXPECT_THAT(problem(c, 8), HasSubstr("var 0's rule block 32 is not a candidate"));
  c = Residual();
  c.uses[2].when[1].block = 4;
  EXPECT_THAT(problem(c, 8), HasSubstr("use 2 wants block 4 of var 1"));
  c = Residual();
  c.uses[0].when.push_back({1, 8});
  c.uses[0].when.push_back({1, 16});
  EXPECT_THAT(problem(c, 8), HasSubstr("use 0 has 3 conditions"));
  c = Residual();
  c.uses[3].site = 3;
  EXPECT_THAT(problem(c, 8), HasSubstr("use 3 names site 3 of 3"));
  c = Residual();
  c.uses[5].when[0].var = -1;
  EXPECT_THAT(problem(c, 8), HasSubstr("use 5 names var -1 of 2"));
  c = Residual();
  c.vars[1].candidates.clear();
  EXPECT_THAT(problem(c, 8), HasSubstr("var 1 has 0 candidate blocks"));
}

TEST(LayoutChoiceTest, JsonRoundTripsAndMalformedJsonIsRefused) {
  const LayoutChoice c = Residual();
  absl::StatusOr<LayoutChoice> back = LayoutChoiceFromJson(LayoutChoiceToJson(c));
  ASSERT_TRUE(back.ok()) << back.status();
  EXPECT_EQ(LayoutChoiceToJson(*back), LayoutChoiceToJson(c));
  EXPECT_EQ(back->uses.size(), c.uses.size());
  EXPECT_EQ(back->vars[1].candidates, c.vars[1].candidates);
  EXPECT_EQ(back->site_required, c.site_required);
  auto refused = [](const std::string& json) {
    absl::StatusOr<LayoutChoice> r = LayoutChoiceFromJson(json);
    EXPECT_EQ(r.status().code(), absl::StatusCode::kInvalidArgument) << json;
    return std::string(r.status().message());
  };
  EXPECT_THAT(refused("[1]"), HasSubstr("not a JSON object"));
  EXPECT_THAT(refused(R"({"vars":{},"sites":[],"uses":[]})"),
              HasSubstr("field 'vars' is not an array"));
  EXPECT_THAT(refused(R"({"vars":[[16,16]],"sites":[],"uses":[]})"),
              HasSubstr("a var is not [rule, stage, candidate...]"));
  EXPECT_THAT(refused(R"({"vars":[],"sites":[1],"uses":[[0,0,0,8,0,8,0,8]]})"),
              HasSubstr("a use is not [task, site, var, block...]"));
  EXPECT_THAT(refused(R"({"vars":[],"sites":[1],"uses":[[0,0,1.5,8]]})"),
              HasSubstr("a use is not"));
  EXPECT_THAT(refused(R"({"vars":[],"sites":[1],"uses":[[0,99999999999]]})"), HasSubstr("too big"));
  // A claimed size is not trusted: the arrays' real lengths are checked before anything is kept.
  std::string many = R"({"vars":[],"sites":[)";
  for (int i = 0; i <= kMaxLayoutSites; ++i) absl::StrAppend(&many, i ? "," : "", "1");
  EXPECT_THAT(refused(many + R"(],"uses":[]})"), HasSubstr("field 'sites' has 8193 entries"));
}

}  // namespace
}  // namespace tunefarm::tuner
