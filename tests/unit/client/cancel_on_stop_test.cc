// CancelOnStop: the stop flag set while a watch blocks calls cancel exactly once; a flag never set
// (or none) never calls it, and destruction returns promptly either way. Runs under TSan with
// tools_tests.
#include "client/cancel_on_stop.h"

#include <atomic>
#include <chrono>
#include <gtest/gtest.h>
#include <thread>

namespace tunefarm::client {
namespace {

TEST(CancelOnStopTest, ASetFlagCancelsOnceWhileTheWatchBlocks) {
  std::atomic<bool> stop{false};
  std::atomic<int> cancels{0};
  {
    CancelOnStop canceller(&stop, [&] { cancels.fetch_add(1); });
    std::this_thread::sleep_for(std::chrono::milliseconds(150));
    EXPECT_EQ(cancels.load(), 0);
    stop = true;
    for (int i = 0; i < 100 && cancels.load() == 0; ++i) {
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    EXPECT_EQ(cancels.load(), 1);
    std::this_thread::sleep_for(std::chrono::milliseconds(250));
  }
  EXPECT_EQ(cancels.load(), 1) << "cancelled once, however long the flag stays set";
}

TEST(CancelOnStopTest, AFlagNeverSetOrNoneNeverCancels) {
  std::atomic<bool> stop{false};
  int cancels = 0;
  const auto start = std::chrono::steady_clock::now();
  {
    CancelOnStop canceller(&stop, [&] { ++cancels; });
  }
  {
    CancelOnStop none(nullptr, [&] { ++cancels; });
  }
  EXPECT_EQ(cancels, 0);
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(2));
}

}  // namespace
}  // namespace tunefarm::client
