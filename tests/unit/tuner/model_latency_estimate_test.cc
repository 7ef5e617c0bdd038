// The model latency estimate from task times: layers of one task, layers of alternatives (the
// faster counts), layers without a time.
#include "tuner/model_latency_estimate.h"

#include <gtest/gtest.h>

namespace tunefarm::tuner {
namespace {

TEST(ModelLatencyEstimateTest, EachLayerCountsItsFastestAlternativeOnce) {
  const std::vector<TaskBest> tasks = {
      {0, 3, 2e-3}, {0, 3, 1e-3}, {-1, 1, 4e-3}, {1, 2, 5e-3}, {1, 2, 0}};
  EXPECT_EQ(ChosenAlternatives(tasks), (std::vector<bool>{false, true, true, true, false}));
  ASSERT_TRUE(EstimatedModelSeconds(tasks).has_value());
  EXPECT_DOUBLE_EQ(*EstimatedModelSeconds(tasks), 3 * 1e-3 + 4e-3 + 2 * 5e-3);
}

TEST(ModelLatencyEstimateTest, TiesChooseTheFirstAlternative) {
  EXPECT_EQ(ChosenAlternatives({{7, 1, 1e-3}, {7, 1, 1e-3}}), (std::vector<bool>{true, false}));
}

TEST(ModelLatencyEstimateTest, ALayerWithoutATimeLeavesNoEstimate) {
  EXPECT_FALSE(EstimatedModelSeconds({{0, 1, 1e-3}, {1, 1, 0}, {1, 1, 0}}).has_value());
  EXPECT_FALSE(EstimatedModelSeconds({{-1, 1, 1e-3}, {-1, 1, 0}}).has_value());
  EXPECT_EQ(ChosenAlternatives({{1, 1, 0}, {1, 1, 0}}), (std::vector<bool>{false, false}));
  EXPECT_DOUBLE_EQ(*EstimatedModelSeconds({}), 0);
}

}  // namespace
}  // namespace tunefarm::tuner
