// LiveJobs: the jobs in memory shared by the job and model job managers' bookkeeping.
#include "tracker/live_jobs.h"

#include <atomic>
#include <chrono>
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <set>
#include <thread>

#include "tests/testing/fake_clock.h"

namespace tunefarm::tracker {
namespace {

using ::testing::StartsWith;

struct Entry {
  farm_api::JobStatus status;
};

std::shared_ptr<Entry> Add(LiveJobs<Entry>& live, const std::string& id) {
  auto entry = std::make_shared<Entry>();
  entry->status.id = id;
  entry->status.state = farm_api::JobState::kRunning;
  std::lock_guard<std::mutex> lock(live.mu);
  live.entries[id] = entry;
  return entry;
}

TEST(LiveJobsTest, TouchRaisesTheVersionStampsTheTimeAndWakesAWaiter) {
  fixtures::FakeClock clock(1000);
  LiveJobs<Entry> live("job", &clock);
  std::shared_ptr<Entry> job = Add(live, "job-1");
  std::optional<farm_api::JobStatus> seen;
  std::thread waiter([&] { seen = live.WaitForChange("job-1", 0, /*timeout_ms=*/60000); });
  // Touched until the waiter has seen it: a touch before the waiter waits is seen at once too.
  clock.Set(2000);
  {
    std::lock_guard<std::mutex> lock(live.mu);
    live.Touch(*job);
  }
  waiter.join();
  ASSERT_TRUE(seen.has_value());
  EXPECT_EQ(seen->version, 1);
  EXPECT_EQ(seen->updated_ms, 2000);
}

TEST(LiveJobsTest, AWaitForAnUnchangedJobEndsAtItsTimeoutWithTheStatusAsItStands) {
  fixtures::FakeClock clock(1000);
  LiveJobs<Entry> live("job", &clock);
  Add(live, "job-1");
  const auto start = std::chrono::steady_clock::now();
  std::optional<farm_api::JobStatus> seen = live.WaitForChange("job-1", 0, /*timeout_ms=*/50);
  EXPECT_GE(std::chrono::steady_clock::now() - start, std::chrono::milliseconds(50));
  ASSERT_TRUE(seen.has_value());
  EXPECT_EQ(seen->version, 0);
  EXPECT_EQ(seen->state, farm_api::JobState::kRunning);
}

TEST(LiveJobsTest, AFinishedJobOrAShutdownAnswersAtOnceAndAnUnknownIdIsNotHeld) {
  fixtures::FakeClock clock(1000);
  LiveJobs<Entry> live("job", &clock);
  std::shared_ptr<Entry> done = Add(live, "job-done");
  done->status.state = farm_api::JobState::kSucceeded;
  Add(live, "job-running");
  EXPECT_FALSE(live.WaitForChange("job-unknown", 0, 60000).has_value());
  std::optional<farm_api::JobStatus> finished = live.WaitForChange("job-done", 5, 60000);
  ASSERT_TRUE(finished.has_value());
  EXPECT_EQ(finished->state, farm_api::JobState::kSucceeded);

  std::optional<farm_api::JobStatus> at_shutdown;
  std::thread waiter([&] { at_shutdown = live.WaitForChange("job-running", 0, 60000); });
  live.ShutDown();
  waiter.join();
  ASSERT_TRUE(at_shutdown.has_value());
  EXPECT_EQ(at_shutdown->version, 0);
  std::lock_guard<std::mutex> lock(live.mu);
  EXPECT_TRUE(live.shutting_down);
}

TEST(LiveJobsTest, NewIdsCarryThePrefixAndAreUniqueAndOnlyUnfinishedJobsCount) {
  fixtures::FakeClock clock(1000);
  LiveJobs<Entry> live("model", &clock);
  std::set<std::string> ids;
  for (int i = 0; i < 200; ++i) {
    std::string id;
    {
      std::lock_guard<std::mutex> lock(live.mu);
      id = live.NewIdLocked();
    }
    EXPECT_THAT(id, StartsWith("model-"));
    EXPECT_EQ(id.size(), std::string("model-").size() + 8) << id;
    EXPECT_TRUE(ids.insert(id).second) << id;
    std::shared_ptr<Entry> entry = Add(live, id);
    if (i % 2 == 0) entry->status.state = farm_api::JobState::kCancelled;
  }
  std::lock_guard<std::mutex> lock(live.mu);
  EXPECT_EQ(live.UnfinishedLocked(), 100);
}

}  // namespace
}  // namespace tunefarm::tracker
