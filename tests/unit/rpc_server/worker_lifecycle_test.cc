// The worker's life across connections: it reconnects when the tracker restarts on the same
// port (naming its previous id) and re-sends a result finished while disconnected; it drains
// (finishes the lease in hand, reports it, leaves) on Drain() or the tracker's Drain; a
// cancelled lease's result is dropped.
#include <filesystem>
#include <gtest/gtest.h>
#include <stdlib.h>
#include <thread>
#include <unistd.h>

#include "absl/strings/str_cat.h"
#include "rpc_server/worker.h"
#include "runtime/measure/sha256.h"
#include "tests/testing/files.h"
#include "tests/unit/rpc_server/fake_tracker.h"
#include "tests/unit/rpc_server/test_kernels.h"
#include "tests/unit/rpc_server/worker_fixture.h"

namespace tunefarm::rpc_server {
namespace {

using testing::FakeTracker;
using testing::MakeLease;
using testing::RunningWorker;

class WorkerLifecycleTest : public testing::WorkerFixture {
 protected:
  void SetUp() override {
    WorkerFixture::SetUp();
    if (IsSkipped() || HasFatalFailure()) return;
    // The slow kernel creates this file when it starts: the lease is then surely in progress.
    marker_ = absl::StrCat(::testing::TempDir(), "/rpc_marker_", getpid(), "_",
                           ::testing::UnitTest::GetInstance()->current_test_info()->name());
    std::filesystem::remove(marker_);
    setenv(testing::kMarkerEnv, marker_.c_str(), 1);
  }
  void TearDown() override {
    unsetenv(testing::kMarkerEnv);
    std::filesystem::remove(marker_);
  }

  // Waits until the slow kernel has started.
  bool WaitForMarker() {
    for (int i = 0; i < 2000; ++i) {
      if (std::filesystem::exists(marker_)) return true;
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    return false;
  }

  std::string marker_;
};

TEST_F(WorkerLifecycleTest, ReconnectsAfterRestartAndResendsTheResult) {
  auto tracker = std::make_unique<FakeTracker>();
  ASSERT_TRUE(tracker->ok());
  const int port = tracker->port();
  absl::StatusOr<std::unique_ptr<Worker>> worker = Worker::Create(Options(*tracker));
  ASSERT_TRUE(worker.ok()) << worker.status();
  RunningWorker running(worker->get());
  ASSERT_EQ(tracker->WaitForRegistrations(1).size(), 1u);

  ASSERT_TRUE(tracker->Send(MakeLease(5, library_, sha_, "slow_add_one")));
  ASSERT_TRUE(WaitForMarker());
  tracker->Shutdown();  // the tracker goes away mid-lease
  tracker = std::make_unique<FakeTracker>("", port);
  ASSERT_TRUE(tracker->ok());

  std::vector<v1::Register> hello = tracker->WaitForRegistrations(1);
  ASSERT_EQ(hello.size(), 1u);
  EXPECT_EQ(hello[0].previous_worker_id(), "w1");
  std::optional<v1::WorkerMessage> result = tracker->WaitForResult(5);
  ASSERT_TRUE(result.has_value());
  EXPECT_EQ(result->result().outcome().error_kind(), "ok")
      << result->result().outcome().error_message();
  EXPECT_EQ((*worker)->stats().connections, 2);

  (*worker)->Stop();
  ASSERT_TRUE(running.Wait().has_value());
}

TEST_F(WorkerLifecycleTest, DrainFinishesTheLeaseThenReturns) {
  FakeTracker tracker;
  ASSERT_TRUE(tracker.ok());
  absl::StatusOr<std::unique_ptr<Worker>> worker = Worker::Create(Options(tracker));
  ASSERT_TRUE(worker.ok()) << worker.status();
  RunningWorker running(worker->get());
  ASSERT_EQ(tracker.WaitForRegistrations(1).size(), 1u);

  ASSERT_TRUE(tracker.Send(MakeLease(9, library_, sha_, "slow_add_one")));
  ASSERT_TRUE(WaitForMarker());
  (*worker)->Drain();
  std::optional<absl::Status> status = running.Wait();
  ASSERT_TRUE(status.has_value());
  EXPECT_TRUE(status->ok()) << *status;

  std::vector<v1::WorkerMessage> got = tracker.received();
  ASSERT_EQ(got.size(), 2u);
  EXPECT_TRUE(got[0].has_draining());
  ASSERT_TRUE(got[1].has_result());
  EXPECT_EQ(got[1].result().lease_id(), 9);
  EXPECT_EQ(got[1].result().outcome().error_kind(), "ok");
  EXPECT_TRUE(tracker.WaitForStreamsEnded(1));
}

TEST_F(WorkerLifecycleTest, TrackerDrainWhileIdleEndsRun) {
  FakeTracker tracker;
  ASSERT_TRUE(tracker.ok());
  absl::StatusOr<std::unique_ptr<Worker>> worker = Worker::Create(Options(tracker));
  ASSERT_TRUE(worker.ok()) << worker.status();
  RunningWorker running(worker->get());
  ASSERT_EQ(tracker.WaitForRegistrations(1).size(), 1u);
  v1::TrackerMessage drain;
  drain.mutable_drain()->set_reason("maintenance");
  ASSERT_TRUE(tracker.Send(drain));
  std::optional<absl::Status> status = running.Wait();
  ASSERT_TRUE(status.has_value());
  EXPECT_TRUE(status->ok()) << *status;
  ASSERT_TRUE(tracker.WaitFor([](const v1::WorkerMessage& m) { return m.has_draining(); }, 1));
}

TEST_F(WorkerLifecycleTest, CancelledLeaseResultIsDropped) {
  FakeTracker tracker;
  ASSERT_TRUE(tracker.ok());
  absl::StatusOr<std::unique_ptr<Worker>> worker = Worker::Create(Options(tracker));
  ASSERT_TRUE(worker.ok()) << worker.status();
  RunningWorker running(worker->get());
  ASSERT_EQ(tracker.WaitForRegistrations(1).size(), 1u);

  ASSERT_TRUE(tracker.Send(MakeLease(11, library_, sha_, "slow_add_one")));
  ASSERT_TRUE(WaitForMarker());
  v1::TrackerMessage cancel;
  cancel.mutable_cancel()->set_lease_id(11);
  ASSERT_TRUE(tracker.Send(cancel));
  ASSERT_TRUE(tracker.Send(MakeLease(12, library_, sha_, "add_one", /*hash_only=*/true)));
  std::optional<v1::WorkerMessage> next = tracker.WaitForResult(12);
  ASSERT_TRUE(next.has_value());
  EXPECT_EQ(next->result().outcome().error_kind(), "ok");
  EXPECT_FALSE(tracker.WaitForResult(11, 0).has_value());
  (*worker)->Stop();
  ASSERT_TRUE(running.Wait().has_value());
}

}  // namespace
}  // namespace tunefarm::rpc_server
