// HostTimingLock across processes' worth of descriptors: a timing excludes every other timing and
// build, builds share, a waiter gives up after its bound, and TUNEFARM_TIMING_LOCK=off is a lock
// nobody waits for.
#include "runtime/measure/host_timing_lock.h"

#include <atomic>
#include <chrono>
#include <gtest/gtest.h>
#include <thread>
#include <unistd.h>

#include "absl/strings/str_cat.h"

namespace tunefarm::runtime::measure {
namespace {

using Mode = HostTimingLock::Mode;

std::string LockPath(const std::string& stem) {
  return absl::StrCat(::testing::TempDir(), "/timing_lock_", getpid(), "_", stem);
}

TEST(HostTimingLockTest, ATimingExcludesTimingsAndBuilds) {
  const std::string path = LockPath("exclusive");
  absl::StatusOr<HostTimingLock> timing = HostTimingLock::Acquire(Mode::kTiming, 1, path);
  ASSERT_TRUE(timing.ok()) << timing.status();
  ASSERT_TRUE(timing->held());
  for (Mode other : {Mode::kTiming, Mode::kBuilding}) {
    absl::StatusOr<HostTimingLock> second = HostTimingLock::Acquire(other, 0.05, path);
    ASSERT_TRUE(second.ok());
    EXPECT_FALSE(second->held());
    EXPECT_GE(second->waited_s(), 0.05);
    EXPECT_NE(second->reason().find("without getting it"), std::string::npos) << second->reason();
  }
  *timing = HostTimingLock::Acquire(Mode::kBuilding, 1, LockPath("other")).value();
  // Released by the assignment: the lock is free again.
  absl::StatusOr<HostTimingLock> after = HostTimingLock::Acquire(Mode::kTiming, 1, path);
  ASSERT_TRUE(after.ok());
  EXPECT_TRUE(after->held());
}

TEST(HostTimingLockTest, BuildsShareAndKeepTimingsOut) {
  const std::string path = LockPath("shared");
  HostTimingLock a = HostTimingLock::Acquire(Mode::kBuilding, 1, path).value();
  HostTimingLock b = HostTimingLock::Acquire(Mode::kBuilding, 1, path).value();
  EXPECT_TRUE(a.held());
  EXPECT_TRUE(b.held());
  EXPECT_FALSE(HostTimingLock::Acquire(Mode::kTiming, 0.05, path)->held());
}

TEST(HostTimingLockTest, AWaitingTimingGetsTheLockWhenTheBuildEnds) {
  const std::string path = LockPath("handover");
  auto build =
      std::make_unique<HostTimingLock>(HostTimingLock::Acquire(Mode::kBuilding, 1, path).value());
  std::atomic<bool> got{false};
  std::thread timer([&] {
    absl::StatusOr<HostTimingLock> t = HostTimingLock::Acquire(Mode::kTiming, 10, path);
    got = t.ok() && t->held();
  });
  std::this_thread::sleep_for(std::chrono::milliseconds(50));
  EXPECT_FALSE(got.load());
  // A build that arrives while the timing waits does not get ahead of it.
  EXPECT_FALSE(HostTimingLock::Acquire(Mode::kBuilding, 0.05, path)->held());
  build.reset();
  timer.join();
  EXPECT_TRUE(got.load());
}

TEST(HostTimingLockTest, OffIsNeverWaitedFor) {
  absl::StatusOr<HostTimingLock> off = HostTimingLock::Acquire(Mode::kTiming, 1, "off");
  ASSERT_TRUE(off.ok());
  EXPECT_FALSE(off->held());
  EXPECT_TRUE(off->off());
}

TEST(HostTimingLockTest, AnUnwritablePathIsAnError) {
  absl::StatusOr<HostTimingLock> bad =
      HostTimingLock::Acquire(Mode::kTiming, 1, "/nonexistent-dir/timing.lock");
  EXPECT_FALSE(bad.ok());
  EXPECT_NE(bad.status().message().find("/nonexistent-dir/timing.lock"), std::string::npos);
}

}  // namespace
}  // namespace tunefarm::runtime::measure
