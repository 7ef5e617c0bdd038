// TimeStably: repeats that spread are timed again and the best attempt kept; a canary that runs
// slow (a skewed clock, as a frequency drop would look) makes an attempt a slow phase, which is
// timed again; what stays bad is flagged noisy, within the bound on attempts.
#include "runtime/measure/stable_timing.h"

#include <chrono>
#include <cstdio>
#include <gtest/gtest.h>
#include <thread>
#include <vector>

#include "absl/strings/str_cat.h"
#include "runtime/core/thread_pool.h"
#include "tests/unit/runtime/measure/skewed_clock.h"

namespace tunefarm::runtime::measure {
namespace {

TEST(SpreadTest, MaxOverMinLessOne) {
  EXPECT_DOUBLE_EQ(Spread(std::vector<double>{1.0, 1.5, 1.2}), 0.5);
  EXPECT_EQ(Spread(std::vector<double>{2.0}), 0);
  EXPECT_EQ(Spread(std::vector<double>{}), 0);
}

TEST(StableTimingTest, AgreeingRepeatsAreTimedOnce) {
  Canary canary;
  int calls = 0;
  absl::StatusOr<StableTiming> t = TimeStably(
      [&]() -> absl::StatusOr<std::vector<double>> {
        ++calls;
        return std::vector<double>{1.00e-3, 1.01e-3, 1.02e-3};
      },
      canary, {.max_spread = 0.05, .max_attempts = 3, .slow_phase_ratio = 1e9});
  ASSERT_TRUE(t.ok()) << t.status();
  EXPECT_EQ(calls, 1);
  EXPECT_EQ(t->attempts, 1);
  EXPECT_FALSE(t->noisy);
  EXPECT_NEAR(t->spread, 0.02, 1e-9);
}

TEST(StableTimingTest, SpreadRepeatsAreTimedAgainAndTheBestKept) {
  Canary canary;
  std::vector<std::vector<double>> attempts = {
      {1.0e-3, 1.4e-3, 1.1e-3}, {1.0e-3, 1.01e-3, 1.0e-3}, {9.0, 9.0, 9.0}};
  int calls = 0;
  absl::StatusOr<StableTiming> t =
      TimeStably([&]() -> absl::StatusOr<std::vector<double>> { return attempts[calls++]; }, canary,
                 {.max_spread = 0.05, .max_attempts = 3, .slow_phase_ratio = 1e9});
  ASSERT_TRUE(t.ok());
  EXPECT_EQ(calls, 2);  // the second attempt agreed: no third
  EXPECT_EQ(t->repeat_seconds, attempts[1]);
  EXPECT_EQ(t->attempts, 2);
  EXPECT_FALSE(t->noisy);
}

TEST(StableTimingTest, RepeatsThatNeverAgreeAreFlaggedNoisyWithinTheBound) {
  Canary canary;
  int calls = 0;
  absl::StatusOr<StableTiming> t = TimeStably(
      [&]() -> absl::StatusOr<std::vector<double>> {
        ++calls;
        return std::vector<double>{1.0, 1.0 + 0.1 * calls};
      },
      canary, {.max_spread = 0.05, .max_attempts = 3, .slow_phase_ratio = 1e9});
  ASSERT_TRUE(t.ok());
  EXPECT_EQ(calls, 3);
  EXPECT_TRUE(t->noisy);
  EXPECT_NEAR(t->spread, 0.1, 1e-9);  // the least spread of the three
}

TEST(StableTimingTest, TheCanaryCatchesASlowPhaseAndTheBatchIsTimedAgain) {
  // The canary's clock steps evenly; for its six reads after the first attempt (its three runs'
  // starts and ends) each step doubles: it looks twice as slow, as in a slow phase.
  testing::SteppingClock clock;
  Canary canary(clock.Function(), "off");
  canary.Ratio(canary.Time());  // its best, in a normal phase
  int calls = 0;
  absl::StatusOr<StableTiming> t = TimeStably(
      [&]() -> absl::StatusOr<std::vector<double>> {
        ++calls;
        if (calls == 1) clock.RunSlowFor(6);  // the canary after the first attempt runs slow
        return std::vector<double>{calls == 1 ? 2e-3 : 1e-3, 1e-3};
      },
      canary, {.max_spread = 1e9, .max_attempts = 3, .slow_phase_ratio = 1.3});
  ASSERT_TRUE(t.ok());
  // Timed again, once, and the attempt outside the slow phase kept.
  EXPECT_EQ(calls, 2);
  EXPECT_EQ(t->repeat_seconds, (std::vector<double>{1e-3, 1e-3}));
  EXPECT_LT(t->canary_ratio, 1.3);
}

TEST(StableTimingTest, AnErrorStopsTheTiming) {
  Canary canary;
  absl::StatusOr<StableTiming> t = TimeStably(
      []() -> absl::StatusOr<std::vector<double>> { return absl::InternalError("kernel 3"); },
      canary);
  EXPECT_EQ(t.status().message(), "kernel 3");
}

TEST(CanaryTest, ItsRatioIsOverItsBest) {
  Canary canary({}, "off");  // its own best only: other processes of this host may share theirs
  const double t = canary.Time();
  EXPECT_GT(t, 0);
  EXPECT_GT(canary.passes(), 0u);
  EXPECT_DOUBLE_EQ(canary.Ratio(t), 1.0);
  EXPECT_DOUBLE_EQ(canary.Ratio(2 * t), 2.0);
  EXPECT_DOUBLE_EQ(canary.Ratio(t / 2), 1.0);  // a new best
}

// A canary that starts later (a fresh measure child, perhaps in a slow phase) measures against
// the best the host's other processes saw, through the baseline file.
TEST(CanaryTest, AFreshCanaryKnowsTheHostsBest) {
  // A new prefix in this process's private temporary folder (removed at exit): no file yet.
  const std::string prefix = absl::StrCat(::testing::TempDir(), "/canary_baseline_", ::getpid());
  runtime::SetNumThreads(1);
  Canary first({}, prefix);
  const double t = first.Time();
  EXPECT_DOUBLE_EQ(first.Ratio(t), 1.0);
  Canary second({}, prefix);
  second.Time();
  // Twice the first's time per pass, whatever work the second sized for itself.
  const double doubled = 2 * t / first.passes() * second.passes();
  EXPECT_NEAR(second.Ratio(doubled), 2.0, 1e-9);
}

}  // namespace
}  // namespace tunefarm::runtime::measure
