// The task scheduler on simulated tuning curves (each task's best time as a function of its
// trials): warm-up order, weights, flat against improving tasks, finished tasks, round-robin,
// determinism, and that it beats round-robin on the model's estimated latency.
#include "tuner/task_scheduler.h"

#include <cmath>
#include <functional>
#include <gtest/gtest.h>
#include <limits>
#include <string>
#include <vector>

#include "tests/unit/tuner/residual_layout_choice.h"
namespace tunefarm::tuner {
namespace {

using Curve = std::function<double(int trials)>;

// A task whose best time falls from `start` towards `floor`, halving the gap every `half` trials.
Curve Falling(double start, double floor, double half) {
  return [=](int t) { return floor + (start - floor) * std::pow(0.5, t / half); };
}

// Runs `batches` batches of `batch` trials, each where the scheduler says.
void Simulate(TaskScheduler& s, const std::vector<Curve>& curves, int batches, int batch = 8) {
  for (int b = 0; b < batches; ++b) {
    std::optional<int> t = s.Next();
    if (!t) return;
    s.Observe(*t, batch, curves[*t](s.trials(*t) + batch));
  }
}

TaskSchedulerOptions Greedy() {
  TaskSchedulerOptions o;
  o.epsilon = 0;
  return o;
}

TEST(TaskSchedulerTest, EveryTaskGetsABatchBeforeAnyGetsASecond) {
  TaskScheduler s({{"a", 1}, {"b", 5}, {"c", 1}}, Greedy());
  EXPECT_EQ(s.Next(), 0);
  EXPECT_EQ(s.Next(), 1);
  EXPECT_EQ(s.Next(), 2);
  EXPECT_FALSE(s.EstimatedSeconds().has_value());
  s.Observe(0, 8, 1e-3);
  s.Observe(1, 8, 2e-3);
  s.Observe(2, 8, 3e-3);
  EXPECT_DOUBLE_EQ(*s.EstimatedSeconds(), 1e-3 + 5 * 2e-3 + 3e-3);
  EXPECT_EQ(s.trials(1), 8);
}

TEST(TaskSchedulerTest, TheHeavierOfTwoEqualTasksGetsMoreTrials) {
  TaskScheduler s({{"once", 1}, {"four-times", 4}}, Greedy());
  const Curve same = Falling(10e-3, 1e-3, 40);
  Simulate(s, {same, same}, 40);
  EXPECT_GT(s.trials(1), 1.5 * s.trials(0)) << s.trials(0) << " vs " << s.trials(1);
  EXPECT_EQ(s.trials(0) + s.trials(1), 40 * 8);
}

TEST(TaskSchedulerTest, AFlatTaskYieldsToOneThatKeepsImproving) {
  TaskScheduler s({{"flat", 1}, {"improving", 1}}, Greedy());
  Simulate(s, {[](int) { return 2e-3; }, Falling(20e-3, 1e-3, 60)}, 40);
  EXPECT_GT(s.trials(1), 1.5 * s.trials(0)) << s.trials(0) << " vs " << s.trials(1);
  EXPECT_LT(s.Gradient(1), 0);
}

TEST(TaskSchedulerTest, ItReachesALowerModelLatencyThanRoundRobinOnTheSameBudget) {
  // A heavy, slow, improving layer among cheap ones that are already near their best.
  const std::vector<ScheduledTask> tasks = {
      {"conv-big", 6}, {"conv-a", 1}, {"conv-b", 1}, {"dense", 1}};
  const std::vector<Curve> curves = {Falling(30e-3, 5e-3, 80), Falling(2e-3, 1.8e-3, 20),
                                     Falling(1e-3, 0.9e-3, 20), Falling(0.5e-3, 0.45e-3, 20)};
  TaskScheduler gradient(tasks, Greedy());
  TaskSchedulerOptions rr = Greedy();
  rr.round_robin = true;
  TaskScheduler round_robin(tasks, rr);
  Simulate(gradient, curves, 30);
  Simulate(round_robin, curves, 30);
  ASSERT_TRUE(gradient.EstimatedSeconds() && round_robin.EstimatedSeconds());
  EXPECT_LT(*gradient.EstimatedSeconds(), 0.8 * *round_robin.EstimatedSeconds())
      << *gradient.EstimatedSeconds() << " vs " << *round_robin.EstimatedSeconds();
}

TEST(TaskSchedulerTest, FinishedTasksAreNeverChosenAndTheEndIsNullopt) {
  TaskScheduler s({{"a", 1}, {"b", 1}}, Greedy());
  s.Finish(0);
  for (int i = 0; i < 5; ++i) {
    EXPECT_EQ(s.Next(), 1);
    s.Observe(1, 8, 1e-3);
  }
  s.Finish(1);
  EXPECT_FALSE(s.Next().has_value());
  EXPECT_EQ(s.trials(0), 0);
}

// Two alternatives far behind their layer's fastest, which is finished: neither promises a cut,
// and the batches go to the one with fewer trials, not always to the first.
TEST(TaskSchedulerTest, WhenNoTaskPromisesACutTheFewestTrialsGetTheBatch) {
  TaskScheduler s({{"fast", 1, 0}, {"slow", 1, 0}, {"slower", 1, 0}}, Greedy());
  for (int i = 0; i < 3; ++i) EXPECT_EQ(s.Next(), i);
  s.Observe(0, 8, 1e-3);
  s.Observe(1, 16, 10e-3);
  s.Observe(2, 8, 12e-3);
  s.Finish(0);
  EXPECT_EQ(s.Score(1), 0);
  EXPECT_EQ(s.Score(2), 0);
  std::vector<int> order;
  for (int b = 0; b < 4; ++b) {
    order.push_back(*s.Next());
    s.Observe(order.back(), 8, order.back() == 1 ? 10e-3 : 12e-3);
  }
  EXPECT_EQ(order, (std::vector<int>{2, 1, 2, 1}));
}

TEST(TaskSchedulerTest, RoundRobinCyclesOverTheOpenTasks) {
  TaskSchedulerOptions o = Greedy();
  o.round_robin = true;
  TaskScheduler s({{"a", 1}, {"b", 9}, {"c", 1}}, o);
  std::vector<int> order;
  for (int i = 0; i < 4; ++i) order.push_back(*s.Next());
  EXPECT_EQ(order, (std::vector<int>{0, 1, 2, 0}));
  s.Finish(1);
  order.clear();
  for (int i = 0; i < 3; ++i) order.push_back(*s.Next());
  EXPECT_EQ(order, (std::vector<int>{2, 0, 2}));
}

TEST(TaskSchedulerTest, TheSameSeedMakesTheSameChoices) {
  TaskSchedulerOptions o;
  o.epsilon = 0.5;
  o.seed = 42;
  const std::vector<ScheduledTask> tasks = {{"a", 1}, {"b", 2}, {"c", 3}};
  const std::vector<Curve> curves = {Falling(3e-3, 1e-3, 30), Falling(2e-3, 1e-3, 30),
                                     Falling(1e-3, 0.5e-3, 30)};
  TaskScheduler x(tasks, o), y(tasks, o);
  Simulate(x, curves, 25);
  Simulate(y, curves, 25);
  for (int i = 0; i < 3; ++i) EXPECT_EQ(x.trials(i), y.trials(i));
}

TEST(TaskSchedulerTest, ATaskWithoutAValidTimeGetsAFewBatchesThenNoMore) {
  TaskSchedulerOptions o = Greedy();
  o.window = 3;
  TaskScheduler s({{"failing", 10}, {"fine", 1}}, o);
  Simulate(s, {[](int) { return 0.0; }, Falling(2e-3, 1e-3, 30)}, 20);
  EXPECT_EQ(s.trials(0), 3 * 8) << "the warm-up batch and two more, then nothing";
  EXPECT_EQ(s.Gradient(0), 0);
  EXPECT_FALSE(s.EstimatedSeconds().has_value());
}

TEST(TaskSchedulerTest, BusyTasksArePassedOverUntilTheirBatchEnds) {
  TaskScheduler s({{"a", 1}, {"b", 1}, {"c", 1}}, Greedy());
  EXPECT_EQ(s.Next({true, false, false}), 1);
  EXPECT_EQ(s.Next({true, true, false}), 2);
  EXPECT_EQ(s.Next({true, true, true}), std::nullopt) << "all busy";
  EXPECT_FALSE(s.finished(0));
  EXPECT_EQ(s.Next({false, true, true}), 0);
  // Round-robin skips a busy task too and keeps its turn order.
  TaskSchedulerOptions rr = Greedy();
  rr.round_robin = true;
  TaskScheduler r({{"a", 1}, {"b", 1}, {"c", 1}}, rr);
  EXPECT_EQ(r.Next({true}), 1);
  EXPECT_EQ(r.Next(), 2);
  EXPECT_EQ(r.Next(), 0);
}

TEST(TaskSchedulerTest, ARestoredTaskSkipsItsWarmUpAndKeepsItsBest) {
  TaskScheduler s({{"a", 1}, {"b", 1}}, Greedy());
  s.Restore(0, /*batches=*/2, /*trials=*/16, /*best_seconds=*/0.004);
  EXPECT_EQ(s.trials(0), 16);
  EXPECT_DOUBLE_EQ(s.best_seconds(0), 0.004);
  // b has had no batch: it gets the next one, however promising a is.
  EXPECT_EQ(s.Next(), 1);
  s.Observe(1, 8, 0.001);
  ASSERT_TRUE(s.EstimatedSeconds().has_value());
  EXPECT_DOUBLE_EQ(*s.EstimatedSeconds(), 0.005);
}

TEST(TaskSchedulerTest, ALayersAlternativesCountOnceInTheEstimate) {
  // Layer 0 as a direct conv and as a Winograd conv (the build runs the faster), layer 1 alone.
  TaskScheduler s({{"direct", 2, 0}, {"winograd", 2, 0}, {"dense", 1, 1}}, Greedy());
  s.Observe(0, 8, 3e-3);
  s.Observe(2, 8, 1e-3);
  ASSERT_TRUE(s.EstimatedSeconds().has_value()) << "one alternative with a time is enough";
  EXPECT_DOUBLE_EQ(*s.EstimatedSeconds(), 2 * 3e-3 + 1e-3);
  s.Observe(1, 8, 1e-3);
  EXPECT_DOUBLE_EQ(*s.EstimatedSeconds(), 2 * 1e-3 + 1e-3);
}

TEST(TaskSchedulerTest, AnAlternativeFarBehindItsLayersFastestGetsNoMoreTrials) {
  // Winograd starts 3x faster than the direct conv and both keep improving a little: trials on
  // the direct conv cannot change the model's latency, so after the warm-up they go elsewhere.
  TaskScheduler s({{"direct", 4, 0}, {"winograd", 4, 0}, {"other", 1, 1}}, Greedy());
  Simulate(s, {Falling(6e-3, 5.5e-3, 40), Falling(2e-3, 1.5e-3, 40), Falling(1e-3, 0.5e-3, 40)},
           30);
  EXPECT_EQ(s.trials(0), 8) << "its warm-up batch only";
  EXPECT_EQ(s.Gradient(0), 0);
  EXPECT_LT(s.Gradient(1), 0);
  EXPECT_GT(s.trials(1), 8);
}

TEST(TaskSchedulerTest, AnAlternativeCloseBehindKeepsCompeting) {
  // Two algorithms within a few percent whose times keep falling fast: either may end up the
  // faster, so the slower one's gradient still counts.
  TaskScheduler s({{"direct", 1, 0}, {"winograd", 1, 0}}, Greedy());
  s.Observe(0, 8, 1.00e-3);
  s.Observe(1, 8, 1.02e-3);
  EXPECT_LT(s.Gradient(1), 0);
  EXPECT_LT(s.Gradient(0), 0);
}

// The tasks of testing::ResidualLayoutChoice, and task 8, a layer outside the choice. Each conv's
// fastest block pair alone is in eights, but the transforms make the layout in sixteens the
// cheapest.
std::vector<ScheduledTask> ResidualTasks() {
  std::vector<ScheduledTask> t;
  for (int i = 0; i < 8; ++i) t.push_back({"t" + std::to_string(i), i < 6 ? 1.0 : 0.0, i / 2});
  for (int i = 2; i < 6; ++i) t[i].layer = 1;
  t[6].layer = 2;
  t[7].layer = 3;
  t.push_back({"dense", 1, 4});
  return t;
}

std::vector<Curve> ResidualCurves() {
  auto flat = [](double s) { return Curve([s](int) { return s; }); };
  return {Falling(1e-3, 0.6e-3, 40),
          Falling(0.4e-3, 0.3e-3, 40),  // c1: 16, 8
          Falling(1e-3, 0.6e-3, 40),
          flat(3e-3),  // c2 (16,16), (16,8)
          flat(3e-3),
          Falling(0.4e-3, 0.3e-3, 40),  // c2 (8,8), (8,16)
          flat(3e-3),
          flat(3e-3),  // the transforms
          Falling(1e-3, 0.6e-3, 40)};
}

TEST(TaskSchedulerTest, WithALayoutChoiceTheChosenLayoutsKernelsGetTheTrials) {
  // By layer alone, the sixteens' kernels are 2.5x behind their layer's fastest and starve; the
  // layout the build chooses runs exactly them.
  TaskScheduler by_layer(ResidualTasks(), Greedy());
  Simulate(by_layer, ResidualCurves(), 40);
  EXPECT_EQ(by_layer.trials(0), 8);
  EXPECT_EQ(by_layer.trials(2), 8);

  TaskScheduler s(ResidualTasks(), Greedy(), testing::ResidualLayoutChoice());
  Simulate(s, ResidualCurves(), 40);
  EXPECT_EQ(s.LayoutRuns(0), 1);
  EXPECT_EQ(s.LayoutRuns(2), 1);
  EXPECT_EQ(s.LayoutRuns(1), 0);
  EXPECT_EQ(s.LayoutRuns(8), 0) << "outside the choice";
  EXPECT_GT(s.trials(0), 8);
  EXPECT_GT(s.trials(2), 8);
  EXPECT_EQ(s.trials(1), 8) << "the eights cannot enter the layout soon";
  EXPECT_EQ(s.trials(5), 8);
  EXPECT_EQ(s.Score(1), 0);
  EXPECT_LT(s.Score(0), 0);
  // The estimate is the chosen layout's kernels plus the layer outside it.
  EXPECT_DOUBLE_EQ(*s.EstimatedSeconds(),
                   s.best_seconds(0) + s.best_seconds(2) + s.best_seconds(8));
}

TEST(TaskSchedulerTest, AKernelOutsideTheLayoutThatCouldEnterItSoonKeepsCompeting) {
  // The eights' c2 is just behind: halving its time makes the layout in eights (with c1 in
  // eights) cheaper, so its trials still count.
  TaskScheduler s(ResidualTasks(), Greedy(), testing::ResidualLayoutChoice());
  const std::vector<double> bests = {1e-3, 0.4e-3, 1e-3, 3e-3, 1.7e-3, 3e-3, 3e-3, 3e-3, 1e-3};
  for (int i = 0; i < s.size(); ++i) {
    s.Observe(i, 8, bests[i] * 1.5);
    s.Observe(i, 8, bests[i]);
  }
  EXPECT_EQ(s.LayoutRuns(4), 0) << "0.4 + 1.7 ms against 1 + 1 ms";
  EXPECT_LT(s.Score(4), 0);
  EXPECT_EQ(s.Score(3), 0) << "(16,8) needs a transform whatever its time";
}

TEST(TaskSchedulerTest, ABlockPairTheLayoutNeverRunsPromisesNothing) {
  // Task 9: c1 at an input block no use names (its input's block is fixed), in c1's layer, the
  // fastest of it and still falling: by its weight alone it would compete.
  std::vector<ScheduledTask> tasks = ResidualTasks();
  tasks.push_back({"c1 elsewhere", 1, 0});
  TaskScheduler s(tasks, Greedy(), testing::ResidualLayoutChoice());
  const std::vector<double> bests = {1e-3, 0.4e-3, 1e-3, 3e-3, 3e-3,
                                     3e-3, 3e-3,   3e-3, 1e-3, 0.3e-3};
  for (int i = 0; i < s.size(); ++i) {
    s.Observe(i, 8, bests[i] * 1.5);
    s.Observe(i, 8, bests[i]);
  }
  EXPECT_EQ(s.Score(9), 0);
  EXPECT_EQ(s.LayoutRuns(9), 0);
  EXPECT_LT(s.Score(0), 0);
  EXPECT_DOUBLE_EQ(*s.EstimatedSeconds(), 1e-3 + 1e-3 + 1e-3) << "c1 once, in the sixteens";
}

TEST(TaskSchedulerTest, AnInvalidLayoutChoiceIsIgnored) {
  LayoutChoice c = testing::ResidualLayoutChoice();
  c.uses[0].task = 42;
  TaskScheduler s(ResidualTasks(), Greedy(), c);
  EXPECT_EQ(s.LayoutRuns(0), 0);
  s.Observe(0, 8, 1e-3);
  EXPECT_FALSE(s.EstimatedSeconds().has_value()) << "layers without a time, as without a layout";
}

}  // namespace
}  // namespace tunefarm::tuner
