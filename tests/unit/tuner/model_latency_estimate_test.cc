// The model latency estimate from task times: layers of one task, layers of alternatives (the
// faster counts), layers without a time, and a layout choice's tasks as its chosen layout runs
// them.
#include "tuner/model_latency_estimate.h"

#include <gtest/gtest.h>

#include "tests/unit/tuner/residual_layout_choice.h"

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

TEST(ModelLatencyEstimateTest, WithoutALayoutChoiceRunsAreTheChosenAlternativesWeights) {
  const std::vector<TaskBest> tasks = {{0, 3, 2e-3}, {0, 3, 1e-3}, {-1, 1, 4e-3}, {1, 2, 0}};
  const ModelEstimate e = EstimateModel(tasks, {});
  EXPECT_EQ(e.runs, (std::vector<double>{0, 3, 1, 0}));
  EXPECT_FALSE(e.seconds.has_value()) << "layer 1 has no time";
  EXPECT_DOUBLE_EQ(*EstimateModel({tasks[0], tasks[1], tasks[2]}, {}).seconds, 3e-3 + 4e-3);
}

// The residual choice's tasks 0..7 (tests/unit/tuner/residual_layout_choice.h; the transforms
// of weight 0, as a model's) and a dense layer of weight 2 (task 8).
std::vector<TaskBest> ResidualBests(std::vector<double> seconds) {
  std::vector<TaskBest> tasks;
  const int layers[] = {0, 0, 1, 1, 1, 1, 2, 3, 4};
  const double weights[] = {1, 1, 1, 1, 1, 1, 0, 0, 2};
  for (int i = 0; i < 9; ++i) tasks.push_back({layers[i], weights[i], seconds[i]});
  return tasks;
}

TEST(ModelLatencyEstimateTest, ALayoutChoicesTasksCountAsItsChosenLayoutRunsThem) {
  // c1 is fastest in eights and c2 in (16,16), but mixing them pays a transform: both in
  // sixteens (1 + 1 ms) beats both in eights (0.4 + 3 ms) and each mix (>= 6.4 ms).
  const std::vector<TaskBest> tasks =
      ResidualBests({1e-3, 0.4e-3, 1e-3, 3e-3, 3e-3, 3e-3, 3e-3, 3e-3, 2e-3});
  const ModelEstimate e = EstimateModel(tasks, testing::ResidualLayoutChoice());
  EXPECT_EQ(e.runs, (std::vector<double>{1, 0, 1, 0, 0, 0, 0, 0, 2}));
  ASSERT_TRUE(e.seconds.has_value());
  EXPECT_DOUBLE_EQ(*e.seconds, 1e-3 + 1e-3 + 2 * 2e-3);
  // By layer, c1's eights would count with c2's sixteens: a layout the build cannot run.
  EXPECT_DOUBLE_EQ(*EstimatedModelSeconds(tasks), 0.4e-3 + 1e-3 + 2 * 2e-3);
}

TEST(ModelLatencyEstimateTest, AKernelTheChosenLayoutRunsWithoutATimeLeavesNoEstimate) {
  // The transforms and the mixed pairs have no time: the layout in sixteens needs none of them.
  std::vector<TaskBest> tasks = ResidualBests({1e-3, 0, 1e-3, 0, 0, 0, 0, 0, 2e-3});
  EXPECT_DOUBLE_EQ(*EstimateModel(tasks, testing::ResidualLayoutChoice()).seconds, 6e-3);
  tasks[8].best_seconds = 0;
  EXPECT_FALSE(EstimateModel(tasks, testing::ResidualLayoutChoice()).seconds.has_value())
      << "the dense layer";
  tasks = ResidualBests({0, 0, 0, 0, 0, 0, 0, 0, 2e-3});
  const ModelEstimate e = EstimateModel(tasks, testing::ResidualLayoutChoice());
  EXPECT_FALSE(e.seconds.has_value()) << "no conv has a time";
  EXPECT_EQ(e.runs[8], 2);
}

TEST(ModelLatencyEstimateTest, TasksTheLayoutNeverRunsCountForNothing) {
  // Task 9: c1 at another input block (its input's block is fixed, so no use names it), in c1's
  // layer, and the fastest of it; task 10: a transform no add meets (weight 0), without a time.
  std::vector<TaskBest> tasks =
      ResidualBests({1e-3, 0.4e-3, 1e-3, 3e-3, 3e-3, 3e-3, 3e-3, 3e-3, 2e-3});
  tasks.push_back({0, 1, 0.1e-3});
  tasks.push_back({5, 0, 0});
  EXPECT_EQ(OutsideTheLayout(tasks, testing::ResidualLayoutChoice()),
            (std::vector<bool>{false, false, false, false, false, false, false, false, false, true,
                               true}));
  const ModelEstimate e = EstimateModel(tasks, testing::ResidualLayoutChoice());
  EXPECT_EQ(e.runs, (std::vector<double>{1, 0, 1, 0, 0, 0, 0, 0, 2, 0, 0}));
  ASSERT_TRUE(e.seconds.has_value()) << "the transform without a time is never run";
  EXPECT_DOUBLE_EQ(*e.seconds, 6e-3) << "c1 counted once, in the layout's sixteens";
}

TEST(ModelLatencyEstimateTest, AChoiceThatDoesNotFitItsTasksIsNoChoice) {
  const std::vector<TaskBest> tasks =
      ResidualBests({1e-3, 0.4e-3, 1e-3, 3e-3, 3e-3, 3e-3, 3e-3, 3e-3, 2e-3});
  const ModelEstimate by_layer = EstimateModel(tasks, {});
  EXPECT_DOUBLE_EQ(*by_layer.seconds, 0.4e-3 + 1e-3 + 2 * 2e-3) << "the transforms weigh 0";
  // A use names task 7 of 7 (a reply of fewer tasks than the layout was made for).
  const std::vector<TaskBest> fewer(tasks.begin(), tasks.begin() + 7);
  EXPECT_FALSE(FollowsLayout(testing::ResidualLayoutChoice(), fewer.size()));
  EXPECT_EQ(EstimateModel(fewer, testing::ResidualLayoutChoice()).runs,
            EstimateModel(fewer, {}).runs);
  // Uses without vars: the scheduler has no choice to follow, nor has the estimate.
  LayoutChoice no_vars = testing::ResidualLayoutChoice();
  no_vars.vars.clear();
  EXPECT_FALSE(FollowsLayout(no_vars, tasks.size()));
  const ModelEstimate e = EstimateModel(tasks, no_vars);
  EXPECT_EQ(e.runs, by_layer.runs);
  EXPECT_EQ(e.seconds, by_layer.seconds);
  EXPECT_TRUE(FollowsLayout(testing::ResidualLayoutChoice(), tasks.size()));
}

}  // namespace
}  // namespace tunefarm::tuner
