// MeasureOptions' documented ranges: every number finite and in range, or an error naming it.
#include "tuner/measure.h"

#include <cmath>
#include <functional>
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <limits>
#include <string>
#include <vector>

namespace tunefarm::tuner {
namespace {

using ::testing::HasSubstr;

TEST(MeasureOptionsTest, DefaultsAndTheRangeEndsAreValid) {
  EXPECT_TRUE(ValidateMeasureOptions(MeasureOptions{}).ok());
  MeasureOptions m;
  m.number = 0;
  m.repeat = 1000;
  m.min_repeat_ms = 60000;
  m.cooldown_ms = 60000;
  m.build_timeout_s = 1e-4;
  m.run_timeout_s = 86400;
  m.slow_cutoff_ratio = 0;
  m.threads = 1024;
  EXPECT_TRUE(ValidateMeasureOptions(m).ok());
}

TEST(MeasureOptionsTest, NonFiniteAndHugeNumbersAreRefusedByName) {
  const double inf = std::numeric_limits<double>::infinity();
  struct Case {
    std::function<void(MeasureOptions&)> change;
    std::string message;
  };
  for (const Case& c : std::vector<Case>{
           {[&](MeasureOptions& m) { m.run_timeout_s = inf; },
            "measure.run_timeout_s must be a finite number in (0, 86400] s, got inf"},
           {[](MeasureOptions& m) { m.run_timeout_s = 1e300; },
            "measure.run_timeout_s must be a finite number in (0, 86400] s, got 1e+300"},
           {[](MeasureOptions& m) { m.build_timeout_s = std::nan(""); },
            "measure.build_timeout_s must be a finite number in (0, 86400] s, got nan"},
           {[](MeasureOptions& m) { m.run_timeout_s = 0; }, "measure.run_timeout_s"},
           {[](MeasureOptions& m) { m.cooldown_ms = 1000000000; },
            "measure.cooldown_ms must be a finite number in [0, 60000] ms, got 1000000000"},
           {[](MeasureOptions& m) { m.min_repeat_ms = -1; }, "measure.min_repeat_ms"},
           {[](MeasureOptions& m) { m.repeat = 0; },
            "measure.repeat must be a finite number in "
            "[1, 1000], got 0"},
           {[](MeasureOptions& m) { m.number = -1; }, "measure.number"},
           {[&](MeasureOptions& m) { m.rtol = inf; }, "measure.rtol must be a finite number >= 0"},
           {[](MeasureOptions& m) { m.atol = -1; }, "measure.atol"},
           {[](MeasureOptions& m) { m.slow_cutoff_ratio = std::nan(""); },
            "measure.slow_cutoff_ratio"},
           {[](MeasureOptions& m) { m.threads = 5000; },
            "measure.threads must be a finite number in [0, 1024], got 5000"}}) {
    MeasureOptions m;
    c.change(m);
    absl::Status s = ValidateMeasureOptions(m);
    EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument) << c.message;
    EXPECT_THAT(std::string(s.message()), HasSubstr(c.message));
  }
}

TEST(MeasureOptionsTest, TheDeadlineOfACandidateGrowsWithTheTimingItAsksFor) {
  MeasureOptions quick;
  quick.run_timeout_s = 10;
  quick.repeat = 3;
  quick.min_repeat_ms = 0;
  EXPECT_DOUBLE_EQ(runtime::measure::CandidateDeadlineSeconds(quick), 10);
  // 20 repeats of at least 1 s each cannot fit a 10 s run timeout: three attempts of 20 s,
  // doubled, on top of it.
  MeasureOptions long_repeats = quick;
  long_repeats.repeat = 20;
  long_repeats.min_repeat_ms = 1000;
  EXPECT_DOUBLE_EQ(runtime::measure::CandidateDeadlineSeconds(long_repeats), 10 + 2 * 3 * 20);
  MeasureOptions warm = quick;
  warm.warmup_ms = 500;
  warm.cooldown_ms = 100;
  EXPECT_DOUBLE_EQ(runtime::measure::CandidateDeadlineSeconds(warm), 10 + 2 * 3 * 0.8);
}

TEST(MeasureOptionsTest, PrefixNamesWhereTheOptionsCameFrom) {
  MeasureOptions m;
  m.cooldown_ms = -5;
  EXPECT_THAT(std::string(ValidateMeasureOptions(m, "options.").message()),
              HasSubstr("options.cooldown_ms must be"));
}

}  // namespace
}  // namespace tunefarm::tuner
