// The reconnect schedule: each delay lies in [base / 2, base] where base doubles from the
// initial value up to the cap, and a successful connection starts it over.
#include "rpc_server/backoff.h"

#include <gtest/gtest.h>

namespace tunefarm::rpc_server {
namespace {

TEST(BackoffTest, DoublesWithJitterUpToTheCap) {
  Backoff backoff(0.2, 3.0, 42);
  const double bases[] = {0.2, 0.4, 0.8, 1.6, 3.0, 3.0, 3.0};
  for (double base : bases) {
    double delay = backoff.NextDelay();
    EXPECT_GE(delay, base / 2 - 1e-12);
    EXPECT_LE(delay, base + 1e-12);
  }
  EXPECT_EQ(backoff.attempt(), 7);
  backoff.Reset();
  EXPECT_LE(backoff.NextDelay(), 0.2 + 1e-12);
}

TEST(BackoffTest, JitterSpreadsWorkersApart) {
  Backoff a(1, 1, 1), b(1, 1, 2);
  int differing = 0;
  for (int i = 0; i < 10; ++i) differing += a.NextDelay() != b.NextDelay();
  EXPECT_GT(differing, 5);
}

TEST(BackoffTest, ManyAttemptsStayAtTheCap) {
  Backoff backoff(0.1, 10, 7);
  for (int i = 0; i < 2000; ++i) {
    double delay = backoff.NextDelay();
    ASSERT_GT(delay, 0);
    ASSERT_LE(delay, 10);
  }
}

}  // namespace
}  // namespace tunefarm::rpc_server
