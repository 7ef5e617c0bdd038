// WorkerFleet against a FakeTracker (a real gRPC server on 127.0.0.1:0 answering registrations;
// this binary links no tracker): its workers register, Stop and destruction end their streams
// and join their threads, and a worker that cannot be created leaves the fleet as it was.
#include "rpc_server/worker_fleet.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <set>
#include <string>

#include "tests/unit/rpc_server/fake_tracker.h"

namespace tunefarm::rpc_server {
namespace {

using testing::FakeTracker;

WorkerOptions FleetWorker(const FakeTracker& tracker, const std::string& hostname) {
  WorkerOptions options;
  options.tracker = tracker.address();
  options.device_key = "fleet-cpu";
  options.hostname = hostname;
  options.reconnect_initial_s = 0.05;
  options.reconnect_max_s = 0.2;
  return options;
}

std::set<std::string> Hostnames(const std::vector<v1::Register>& registrations) {
  std::set<std::string> names;
  for (const v1::Register& r : registrations) names.insert(r.hostname());
  return names;
}

TEST(WorkerFleetTest, WorkersRegisterAndStopJoinsThem) {
  FakeTracker tracker;
  ASSERT_TRUE(tracker.ok());
  WorkerFleet fleet;
  ASSERT_TRUE(fleet.Add(FleetWorker(tracker, "fleet-1")).ok());
  ASSERT_TRUE(fleet.Add(FleetWorker(tracker, "fleet-2")).ok());
  EXPECT_EQ(fleet.size(), 2u);
  std::vector<v1::Register> registrations = tracker.WaitForRegistrations(2);
  EXPECT_EQ(Hostnames(registrations), (std::set<std::string>{"fleet-1", "fleet-2"}));
  for (const v1::Register& r : registrations) EXPECT_EQ(r.device_key(), "fleet-cpu");

  fleet.Stop();  // returns once both threads are joined
  EXPECT_EQ(fleet.size(), 0u);
  EXPECT_TRUE(tracker.WaitForStreamsEnded(2));
  fleet.Stop();  // nothing left: a no-op

  // A stopped fleet takes workers again.
  ASSERT_TRUE(fleet.Add(FleetWorker(tracker, "fleet-3")).ok());
  EXPECT_EQ(Hostnames(tracker.WaitForRegistrations(3)).count("fleet-3"), 1u);
}

TEST(WorkerFleetTest, DestructionWithoutStopStopsAndJoins) {
  FakeTracker tracker;
  ASSERT_TRUE(tracker.ok());
  {
    WorkerFleet fleet;
    ASSERT_TRUE(fleet.Add(FleetWorker(tracker, "fleet-1")).ok());
    ASSERT_TRUE(fleet.Add(FleetWorker(tracker, "fleet-2")).ok());
    EXPECT_EQ(tracker.WaitForRegistrations(2).size(), 2u);
  }
  EXPECT_TRUE(tracker.WaitForStreamsEnded(2));
}

// Stopped before their threads may even have reached Run: they still return and are joined.
TEST(WorkerFleetTest, StopRightAfterAdd) {
  FakeTracker tracker;
  ASSERT_TRUE(tracker.ok());
  WorkerFleet fleet;
  for (int i = 0; i < 3; ++i) {
    ASSERT_TRUE(fleet.Add(FleetWorker(tracker, "fleet-" + std::to_string(i))).ok());
  }
  fleet.Stop();
  EXPECT_EQ(fleet.size(), 0u);
}

TEST(WorkerFleetTest, BadOptionsAreAnErrorAndLeaveTheFleetUsable) {
  FakeTracker tracker;
  ASSERT_TRUE(tracker.ok());
  WorkerFleet fleet;
  WorkerOptions no_tracker = FleetWorker(tracker, "fleet-bad");
  no_tracker.tracker.clear();
  absl::Status added = fleet.Add(no_tracker);
  EXPECT_EQ(added.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(std::string(added.message()), ::testing::HasSubstr("tracker address"));
  WorkerOptions no_key = FleetWorker(tracker, "fleet-bad");
  no_key.device_key.clear();
  EXPECT_EQ(fleet.Add(no_key).code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(fleet.size(), 0u);

  ASSERT_TRUE(fleet.Add(FleetWorker(tracker, "fleet-good")).ok());
  EXPECT_EQ(fleet.size(), 1u);
  std::vector<v1::Register> registrations = tracker.WaitForRegistrations(1);
  ASSERT_EQ(registrations.size(), 1u);
  EXPECT_EQ(registrations[0].hostname(), "fleet-good");
}

}  // namespace
}  // namespace tunefarm::rpc_server
