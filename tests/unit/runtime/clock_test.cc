// The system clock reads the Unix epoch in milliseconds, as records and the tracker's times do.
#include "runtime/clock.h"

#include <chrono>
#include <gtest/gtest.h>

#include "tests/testing/fake_clock.h"

namespace tunefarm::runtime {
namespace {

TEST(ClockTest, TheSystemClockIsUnixMilliseconds) {
  const int64_t before = std::chrono::duration_cast<std::chrono::milliseconds>(
                             std::chrono::system_clock::now().time_since_epoch())
                             .count();
  const int64_t now = SystemClock().NowMs();
  const int64_t after = std::chrono::duration_cast<std::chrono::milliseconds>(
                            std::chrono::system_clock::now().time_since_epoch())
                            .count();
  EXPECT_LE(before, now);
  EXPECT_LE(now, after);
}

TEST(ClockTest, AFakeClockMovesOnlyWhenTold) {
  fixtures::FakeClock clock(100);
  const Clock& c = clock;
  EXPECT_EQ(c.NowMs(), 100);
  clock.Advance(50);
  EXPECT_EQ(c.NowMs(), 150);
  clock.Set(7);
  EXPECT_EQ(c.NowMs(), 7);
}

}  // namespace
}  // namespace tunefarm::runtime
