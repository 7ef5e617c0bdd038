#include "runtime/time_evaluator.h"

#include <cmath>
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <limits>
#include <string>
#include <vector>

namespace tunefarm::runtime {
namespace {

using ::testing::DoubleEq;
using ::testing::DoubleNear;
using ::testing::Each;
using ::testing::ElementsAre;
using ::testing::HasSubstr;

// A fake clock where every call of the timed function takes `call_seconds`; sleeps are recorded.
struct FakeTime {
  double now = 0;
  double call_seconds = 0.001;
  int calls = 0;
  std::vector<double> sleeps;

  std::function<absl::Status()> Fn() {
    return [this] {
      ++calls;
      now += call_seconds;
      return absl::OkStatus();
    };
  }
  TimeEvaluatorOptions Options() {
    TimeEvaluatorOptions o;
    o.now_seconds = [this] { return now; };
    o.sleep_for_seconds = [this](double s) { sleeps.push_back(s); };
    return o;
  }
};

TEST(TimeEvaluatorTest, RunsWarmupThenNumberTimesRepeatCalls) {
  FakeTime time;
  TimeEvaluatorOptions o = time.Options();
  o.number = 3;
  o.repeat = 4;
  absl::StatusOr<std::vector<double>> samples = TimeFunction(time.Fn(), o);
  ASSERT_TRUE(samples.ok()) << samples.status();
  EXPECT_EQ(time.calls, 1 + 3 * 4);
  ASSERT_EQ(samples->size(), 4u);
  EXPECT_THAT(*samples, Each(DoubleNear(0.001, 1e-9)));
  EXPECT_TRUE(time.sleeps.empty());
}

TEST(TimeEvaluatorTest, MinRepeatMsRaisesNumberAndKeepsIt) {
  FakeTime time;
  TimeEvaluatorOptions o = time.Options();
  o.number = 1;
  o.repeat = 3;
  o.min_repeat_ms = 9.5;  // not 10: the fake clock's float sums must not sit on the boundary
  o.warmup = 0;
  absl::StatusOr<std::vector<double>> samples = TimeFunction(time.Fn(), o);
  ASSERT_TRUE(samples.ok()) << samples.status();
  // One short repeat of 1 call is discarded; then number = ceil(1.2 * 9.5) = 12 for every repeat.
  EXPECT_EQ(time.calls, 1 + 12 * 3);
  EXPECT_THAT(*samples, Each(DoubleNear(0.001, 1e-9)));
}

TEST(TimeEvaluatorTest, ANearMissGrowsNumberByTheMarginNotTwofold) {
  FakeTime time;
  TimeEvaluatorOptions o = time.Options();
  o.number = 4;
  o.min_repeat_ms = 4.5;  // 4 calls take 4 ms: 5 would do, and 6 pass with the 20 % margin
  o.warmup = 0;
  ASSERT_TRUE(TimeFunction(time.Fn(), o).ok());
  EXPECT_EQ(time.calls, 4 + 6);
}

// What made every calibrated repeat cost three times its target: calls in a loop faster than the
// lone call that sized the repeat. Here the lone call takes 3 us and looped ones 2.9 us (a 100 ms
// repeat sized from the lone call lasted 97 ms and was rerun at 194 ms); with the margin the
// first sized repeat passes the target.
TEST(TimeEvaluatorTest, ALoopFasterThanTheLoneCallStillPassesTheTargetAtOnce) {
  FakeTime time;
  TimeEvaluatorOptions o = time.Options();
  o.number = 1;
  o.min_repeat_ms = 100;
  o.warmup = 0;
  const double start = time.now;
  auto fn = [&time, first = true]() mutable {
    ++time.calls;
    time.now += first ? 3e-6 : 2.9e-6;
    first = false;
    return absl::OkStatus();
  };
  ASSERT_TRUE(TimeFunction(fn, o).ok());
  const double spent_ms = (time.now - start) * 1000;
  EXPECT_GE(spent_ms, 100);
  EXPECT_LT(spent_ms, 1.25 * 100) << "one repeat sized with the margin, not a rerun";
}

TEST(TimeEvaluatorTest, CooldownSleepsBetweenRepeatsOnly) {
  FakeTime time;
  TimeEvaluatorOptions o = time.Options();
  o.repeat = 3;
  o.cooldown_ms = 20;
  ASSERT_TRUE(TimeFunction(time.Fn(), o).ok());
  EXPECT_THAT(time.sleeps, ElementsAre(DoubleEq(0.02), DoubleEq(0.02)));
}

TEST(TimeEvaluatorTest, FlushCacheStillCountsCallsTheSameWay) {
  FakeTime time;
  TimeEvaluatorOptions o = time.Options();
  o.repeat = 2;
  o.number = 2;
  o.flush_cache = true;
  o.flush_bytes = 1 << 20;  // the real default (twice the last-level cache) is slow for a unit test
  ASSERT_TRUE(TimeFunction(time.Fn(), o).ok());
  EXPECT_EQ(time.calls, 1 + 2 * 2);
  EXPECT_GT(CacheFlushBytes(), size_t{1} << 20);
}

TEST(TimeEvaluatorTest, WarmupMsCallsUntilThatLongHasPassedAndTimesNoneOfThem) {
  FakeTime time;
  TimeEvaluatorOptions o = time.Options();
  o.repeat = 2;
  o.number = 3;
  o.warmup_ms = 10;  // ten 1 ms calls after the one warm-up call
  absl::StatusOr<std::vector<double>> samples = TimeFunction(time.Fn(), o);
  ASSERT_TRUE(samples.ok()) << samples.status();
  EXPECT_EQ(time.calls, 1 + 10 + 2 * 3);
  EXPECT_THAT(*samples, Each(DoubleNear(0.001, 1e-12)));

  o.warmup_ms = -1;
  EXPECT_THAT(std::string(TimeFunction(time.Fn(), o).status().message()), HasSubstr("warmup_ms"));
}

// With a layer's caches recreated before each repeat, each repeat is still `number` calls, and
// the weights the calls read keep their contents.
TEST(TimeEvaluatorTest, ALayersCachesAreRecreatedWithoutChangingItsWeights) {
  std::vector<float> weights(100'003);
  for (size_t i = 0; i < weights.size(); ++i) weights[i] = static_cast<float>(i) * 0.5f;
  FakeTime time;
  TimeEvaluatorOptions o = time.Options();
  o.repeat = 3;
  o.layer = LayerCacheState{};
  o.layer->weights = {{weights.data() + 1, (weights.size() - 2) * sizeof(float)}};
  o.layer->inputs = {{weights.data(), sizeof(float)}};
  double sum = 0;
  absl::StatusOr<std::vector<double>> samples = TimeFunction(
      [&] {
        time.now += time.call_seconds;
        ++time.calls;
        sum = 0;
        for (float w : weights) sum += w;
        return absl::OkStatus();
      },
      o);
  ASSERT_TRUE(samples.ok()) << samples.status();
  EXPECT_EQ(time.calls, 1 + 3);
  for (size_t i = 0; i < weights.size(); ++i) ASSERT_EQ(weights[i], static_cast<float>(i) * 0.5f);
  EXPECT_EQ(sum, 0.5 * (100'002.0 * 100'003.0 / 2));
}

TEST(TimeEvaluatorTest, TheFirstErrorStopsTheMeasurement) {
  int calls = 0;
  TimeEvaluatorOptions o;
  o.number = 5;
  o.repeat = 5;
  absl::StatusOr<std::vector<double>> samples = TimeFunction(
      [&calls] {
        return ++calls == 3 ? absl::InternalError("kernel 'k' failed") : absl::OkStatus();
      },
      o);
  EXPECT_EQ(samples.status(), absl::InternalError("kernel 'k' failed"));
  EXPECT_EQ(calls, 3);
}

TEST(TimeEvaluatorTest, RejectsBadOptions) {
  FakeTime time;
  for (auto change : std::vector<std::function<void(TimeEvaluatorOptions&)>>{
           [](TimeEvaluatorOptions& o) { o.number = 0; },
           [](TimeEvaluatorOptions& o) { o.repeat = 0; },
           [](TimeEvaluatorOptions& o) { o.warmup = -1; },
           [](TimeEvaluatorOptions& o) { o.min_repeat_ms = -1; },
           [](TimeEvaluatorOptions& o) { o.cooldown_ms = -1; },
           [](TimeEvaluatorOptions& o) { o.layer.emplace().refill_ratio = -1; },
           [](TimeEvaluatorOptions& o) { o.layer.emplace().refill_ratio = 65; },
           [](TimeEvaluatorOptions& o) {
             o.layer.emplace().refill_ratio = std::numeric_limits<double>::quiet_NaN();
           }}) {
    TimeEvaluatorOptions o = time.Options();
    change(o);
    EXPECT_EQ(TimeFunction(time.Fn(), o).status().code(), absl::StatusCode::kInvalidArgument);
  }
  EXPECT_EQ(time.calls, 0);
}

// A session's TimeFunction options come from the wire: a pause of 1e300 ms or inf must be
// refused, not slept (or rounded), and a huge repeat count must not be reserved.
TEST(TimeEvaluatorTest, RejectsNonFiniteAndHugeNumbersBeforeCallingAnything) {
  FakeTime time;
  const double inf = std::numeric_limits<double>::infinity();
  struct Case {
    std::function<void(TimeEvaluatorOptions&)> change;
    std::string message;
  };
  for (const Case& c : std::vector<Case>{
           {[](TimeEvaluatorOptions& o) { o.cooldown_ms = 1e300; },
            "time evaluator: cooldown_ms must be a finite number in [0, 60000] ms, got 1e+300"},
           {[&](TimeEvaluatorOptions& o) { o.cooldown_ms = inf; }, "cooldown_ms"},
           {[](TimeEvaluatorOptions& o) { o.min_repeat_ms = std::nan(""); },
            "min_repeat_ms must be a finite number in [0, 60000] ms, got nan"},
           {[&](TimeEvaluatorOptions& o) { o.min_repeat_ms = inf; }, "min_repeat_ms"},
           {[](TimeEvaluatorOptions& o) { o.repeat = 2000000000; },
            "repeat must be a finite number in [1, 1000], got 2000000000"},
           {[](TimeEvaluatorOptions& o) { o.number = 2000000000; }, "number"}}) {
    TimeEvaluatorOptions o = time.Options();
    c.change(o);
    absl::Status s = TimeFunction(time.Fn(), o).status();
    EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument) << c.message;
    EXPECT_THAT(std::string(s.message()), HasSubstr(c.message));
  }
  EXPECT_EQ(time.calls, 0);
}

TEST(TimeEvaluatorTest, RealClockGivesPositiveSamples) {
  TimeEvaluatorOptions o;
  o.number = 2;
  o.repeat = 2;
  absl::StatusOr<std::vector<double>> samples = TimeFunction([] { return absl::OkStatus(); }, o);
  ASSERT_TRUE(samples.ok());
  EXPECT_THAT(*samples, Each(::testing::Ge(0.0)));
}

TEST(TimingSummaryTest, OrderStatistics) {
  TimingSummary s = Summarize(std::vector<double>{5, 1, 4, 2, 3, 6});
  EXPECT_EQ(s.count, 6);
  EXPECT_DOUBLE_EQ(s.min, 1);
  EXPECT_DOUBLE_EQ(s.median, 3.5);
  EXPECT_DOUBLE_EQ(s.p20, 2);  // position 1.0 of 0..5
  EXPECT_DOUBLE_EQ(s.p80, 5);  // position 4.0
  TimingSummary one = Summarize(std::vector<double>{0.25});
  EXPECT_DOUBLE_EQ(one.p20, 0.25);
  EXPECT_DOUBLE_EQ(one.p80, 0.25);
  TimingSummary none = Summarize({});
  EXPECT_EQ(none.count, 0);
  EXPECT_EQ(none.median, 0);
}

}  // namespace
}  // namespace tunefarm::runtime
