// The executor measures leases in order on its own thread; cancelling the lease in progress
// kills its measure child (the measurement ends at once, reported as cancelled) and the next
// lease gets a fresh child; a queued lease is simply removed.
#include "rpc_server/lease_executor.h"

#include <chrono>
#include <condition_variable>
#include <filesystem>
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <mutex>
#include <stdlib.h>
#include <thread>
#include <unistd.h>
#include <vector>

#include "absl/strings/str_cat.h"
#include "runtime/measure/measure_program.h"
#include "tests/unit/rpc_server/test_kernels.h"

namespace tunefarm::rpc_server {
namespace {

using runtime::measure::ErrorKind;
using ::testing::HasSubstr;

class LeaseExecutorTest : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string error;
    library_ = testing::TestKernelLibrary(&error);
    if (library_.empty()) GTEST_SKIP() << error;
    absl::StatusOr<std::string> program = runtime::measure::FindMeasureProgram();
    ASSERT_TRUE(program.ok()) << program.status();
    program_ = *program;
    marker_ = absl::StrCat(::testing::TempDir(), "/executor_marker_", getpid());
    std::filesystem::remove(marker_);
    setenv(testing::kMarkerEnv, marker_.c_str(), 1);
  }
  void TearDown() override {
    unsetenv(testing::kMarkerEnv);
    std::filesystem::remove(marker_);
  }

  LeaseTask Task(int64_t id, const std::string& function) {
    LeaseTask task;
    task.lease_id = id;
    task.request.options.run_timeout_s = 20;
    task.request.library_path = library_;
    task.request.function_name = function;
    task.request.reference_library_path = library_;
    task.request.reference_function = "add_one";
    task.request.bindings["n"] = 64;
    task.request.options.repeat = 1;
    task.request.options.number = 1;
    return task;
  }
  void OnDone(LeaseOutcome outcome) {
    std::lock_guard<std::mutex> lock(mu_);
    done_.push_back(std::move(outcome));
    cv_.notify_all();
  }
  bool WaitForDone(size_t count) {
    std::unique_lock<std::mutex> lock(mu_);
    return cv_.wait_for(lock, std::chrono::seconds(20), [&] { return done_.size() >= count; });
  }

  std::string library_, program_, marker_;
  std::mutex mu_;
  std::condition_variable cv_;
  std::vector<LeaseOutcome> done_;
};

TEST_F(LeaseExecutorTest, CancelKillsTheLeaseInProgress) {
  LeaseExecutor executor(program_, {}, nullptr, [this](LeaseOutcome o) { OnDone(std::move(o)); });
  executor.Submit(Task(1, "slow_add_one"));
  executor.Submit(Task(2, "add_one"));
  executor.Submit(Task(3, "add_one"));
  for (int i = 0; i < 2000 && !std::filesystem::exists(marker_); ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  ASSERT_TRUE(std::filesystem::exists(marker_));
  EXPECT_TRUE(executor.Cancel(3));   // queued: removed, no callback
  EXPECT_FALSE(executor.Cancel(1));  // running: killed, reported as cancelled
  ASSERT_TRUE(WaitForDone(2));
  std::this_thread::sleep_for(std::chrono::milliseconds(50));
  std::lock_guard<std::mutex> lock(mu_);
  ASSERT_EQ(done_.size(), 2u);
  EXPECT_EQ(done_[0].lease_id, 1);
  EXPECT_TRUE(done_[0].cancelled);
  EXPECT_EQ(done_[0].outcome.kind, ErrorKind::kRuntimeError);
  EXPECT_THAT(done_[0].outcome.message, HasSubstr("SIGKILL"));
  EXPECT_EQ(done_[1].lease_id, 2);
  EXPECT_FALSE(done_[1].cancelled);
  EXPECT_EQ(done_[1].outcome.kind, ErrorKind::kOk) << done_[1].outcome.message;
  EXPECT_TRUE(executor.Idle());
  EXPECT_EQ(executor.children_started(), 2);
}

}  // namespace
}  // namespace tunefarm::rpc_server
