// The speed probe that compares a device with the tracker, and what its ratio does to a device's
// run timeout.
#include "runtime/measure/speed_probe.h"

#include <cmath>
#include <gtest/gtest.h>
#include <limits>

#include "runtime/measure/measure_options.h"

namespace tunefarm::runtime::measure {
namespace {

TEST(SpeedProbeTest, TakesATimeThatATrackerCanCompare) {
  const double seconds = SpeedProbeSeconds();
  EXPECT_GT(seconds, 0);
  EXPECT_LT(seconds, 5) << "a few ms on a server core; seconds only under heavy emulation";
}

TEST(SpeedProbeTest, SlownessIsTheRatioClampedToOneAndAHundred) {
  EXPECT_DOUBLE_EQ(Slowness(0.030, 0.002), 15);
  EXPECT_DOUBLE_EQ(Slowness(0.001, 0.002), 1) << "a faster device keeps the defaults";
  EXPECT_DOUBLE_EQ(Slowness(10, 0.001), 100);
  EXPECT_DOUBLE_EQ(Slowness(0, 0.002), 1) << "a worker that did not measure";
  EXPECT_DOUBLE_EQ(Slowness(0.01, 0), 1);
  EXPECT_DOUBLE_EQ(Slowness(std::numeric_limits<double>::quiet_NaN(), 0.002), 1);
  EXPECT_DOUBLE_EQ(Slowness(std::numeric_limits<double>::infinity(), 0.002), 1);
  EXPECT_DOUBLE_EQ(Slowness(-1, 0.002), 1);
}

TEST(SpeedProbeTest, ASlowerDeviceGetsALongerRunTimeoutAndTheSameTiming) {
  MeasureOptions o;
  o.run_timeout_s = 10;
  o.min_repeat_ms = 20;
  o.repeat = 3;
  const MeasureOptions slow = ForSlowerDevice(o, 30);
  EXPECT_DOUBLE_EQ(slow.run_timeout_s, 300);
  EXPECT_EQ(slow.repeat, 3);
  EXPECT_DOUBLE_EQ(slow.min_repeat_ms, 20);
  EXPECT_DOUBLE_EQ(ForSlowerDevice(o, 1).run_timeout_s, 10);
  EXPECT_DOUBLE_EQ(ForSlowerDevice(o, 0.5).run_timeout_s, 10);
  o.run_timeout_s = 80000;
  EXPECT_DOUBLE_EQ(ForSlowerDevice(o, 100).run_timeout_s, 86400) << "within its valid range";
  EXPECT_TRUE(ValidateMeasureOptions(ForSlowerDevice(o, 100)).ok());
}

}  // namespace
}  // namespace tunefarm::runtime::measure
