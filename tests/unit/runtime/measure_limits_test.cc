// The ranges of the measurement numbers: finite and in range, or an error naming the field, the
// range and the value.
#include "runtime/measure_limits.h"

#include <cmath>
#include <gtest/gtest.h>
#include <limits>

namespace tunefarm::runtime {
namespace {

TEST(MeasureLimitsTest, InRangeIsOk) {
  EXPECT_TRUE(CheckInRange("x", 0, kPauseRange).ok());
  EXPECT_TRUE(CheckInRange("x", kMaxPauseMs, kPauseRange).ok());
  EXPECT_TRUE(CheckInRange("x", 1e-4, kTimeoutRange).ok());
  EXPECT_TRUE(CheckInRange("x", kMaxTimeoutSeconds, kTimeoutRange).ok());
  EXPECT_TRUE(CheckInRange("x", 1e300, kNonNegativeRange).ok());
}

TEST(MeasureLimitsTest, NonFiniteAndHugeNumbersNameFieldRangeAndValue) {
  const double inf = std::numeric_limits<double>::infinity();
  absl::Status s = CheckInRange("measure.run_timeout_s", inf, kTimeoutRange);
  EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(s.message(), "measure.run_timeout_s must be a finite number in (0, 86400] s, got inf");
  EXPECT_EQ(CheckInRange("measure.run_timeout_s", 1e300, kTimeoutRange).message(),
            "measure.run_timeout_s must be a finite number in (0, 86400] s, got 1e+300");
  EXPECT_EQ(CheckInRange("cooldown_ms", std::nan(""), kPauseRange).message(),
            "cooldown_ms must be a finite number in [0, 60000] ms, got nan");
  EXPECT_EQ(CheckInRange("rtol", inf, kNonNegativeRange).message(),
            "rtol must be a finite number >= 0, got inf");
  EXPECT_EQ(CheckInRange("number", 2e9, NumberRange{0, kMaxCallsPerRepeat}).message(),
            "number must be a finite number in [0, 1073741824], got 2000000000");
}

TEST(MeasureLimitsTest, BoundsAreInclusiveUnlessOpen) {
  EXPECT_FALSE(CheckInRange("x", 0, kTimeoutRange).ok());  // (0, ...]: a timeout of 0 is none
  EXPECT_FALSE(CheckInRange("x", -1, kPauseRange).ok());
  EXPECT_FALSE(CheckInRange("x", kMaxPauseMs + 1, kPauseRange).ok());
  EXPECT_FALSE(CheckInRange("x", 0, kRepeatRange).ok());
  EXPECT_FALSE(CheckInRange("x", kMaxRepeat + 1, kRepeatRange).ok());
  EXPECT_FALSE(CheckInRange("x", -std::numeric_limits<double>::infinity(), kWaitRange).ok());
}

}  // namespace
}  // namespace tunefarm::runtime
