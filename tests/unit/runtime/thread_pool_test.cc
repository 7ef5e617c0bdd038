#include "runtime/core/thread_pool.h"

#include <atomic>
#include <gtest/gtest.h>
#include <mutex>
#include <set>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>
#include <vector>

#include "runtime/core/c_abi.h"

namespace tunefarm::runtime {
namespace {

// Records how often each task id ran, which thread ran it and what num_tasks it was told.
struct Record {
  std::vector<std::atomic<int>> runs;
  std::atomic<int> bad_num_tasks{0};
  std::mutex mutex;
  std::vector<std::thread::id> threads;
  explicit Record(int n) : runs(n), threads(n) {}
};

int32_t RecordTask(int32_t task, int32_t num_tasks, void* closure) {
  auto* r = static_cast<Record*>(closure);
  if (num_tasks != static_cast<int32_t>(r->runs.size())) r->bad_num_tasks++;
  r->runs[task]++;
  std::lock_guard<std::mutex> lock(r->mutex);
  r->threads[task] = std::this_thread::get_id();
  return 0;
}

// Restores the default width after each test, whatever it set.
class ThreadPoolTest : public ::testing::Test {
 protected:
  void TearDown() override { ASSERT_TRUE(SetNumThreads(0)); }
};

void ExpectEachTaskOnce(int32_t num_tasks_arg, int expected_tasks) {
  Record record(expected_tasks);
  ASSERT_EQ(TFBackendParallelLaunch(&RecordTask, &record, num_tasks_arg), 0);
  EXPECT_EQ(record.bad_num_tasks, 0);
  for (int t = 0; t < expected_tasks; ++t) {
    EXPECT_EQ(record.runs[t], 1) << "task " << t << " of " << expected_tasks;
  }
  // The calling thread always runs task 0.
  EXPECT_EQ(record.threads[0], std::this_thread::get_id());
}

TEST_F(ThreadPoolTest, EveryTaskRunsExactlyOnceAtEachWidth) {
  for (int width : {1, 2, 3, 5}) {
    ASSERT_TRUE(SetNumThreads(width));
    ASSERT_EQ(NumThreads(), width);
    for (int tasks : {1, 2, 3, 7, 64}) ExpectEachTaskOnce(tasks, tasks);
    ExpectEachTaskOnce(0, width);  // 0 means the pool's width
    // Many launches in a row: workers must wake for each, asleep or spinning.
    for (int i = 0; i < 50; ++i) ExpectEachTaskOnce(width, width);
  }
}

TEST_F(ThreadPoolTest, TwoThreadsShareTheWork) {
  ASSERT_TRUE(SetNumThreads(2));
  Record record(2);
  ASSERT_EQ(TFBackendParallelLaunch(&RecordTask, &record, 2), 0);
  EXPECT_EQ(record.threads[0], std::this_thread::get_id());
  EXPECT_NE(record.threads[1], std::this_thread::get_id());
}

TEST_F(ThreadPoolTest, WidthOneRunsEverythingOnTheCaller) {
  ASSERT_TRUE(SetNumThreads(1));
  Record record(4);
  ASSERT_EQ(TFBackendParallelLaunch(&RecordTask, &record, 4), 0);
  for (std::thread::id id : record.threads) EXPECT_EQ(id, std::this_thread::get_id());
}

struct Nested {
  std::atomic<int> inner_runs{0};
  std::atomic<int> wrong_thread{0};
  std::atomic<int> inner_result{0};
  std::atomic<int> in_task{0};
};

int32_t InnerTask(int32_t, int32_t, void* closure) {
  static_cast<Nested*>(closure)->inner_runs++;
  return 0;
}

int32_t OuterTask(int32_t, int32_t, void* closure) {
  auto* n = static_cast<Nested*>(closure);
  if (InParallelTask()) n->in_task++;
  std::thread::id self = std::this_thread::get_id();
  struct Check {
    Nested* n;
    std::thread::id self;
  } check{n, self};
  // The nested launch must run serially on this very thread.
  auto inner = [](int32_t task, int32_t num_tasks, void* c) -> int32_t {
    auto* k = static_cast<Check*>(c);
    if (std::this_thread::get_id() != k->self) k->n->wrong_thread++;
    return InnerTask(task, num_tasks, k->n);
  };
  n->inner_result += TFBackendParallelLaunch(inner, &check, 3);
  n->inner_result += TFBackendParallelLaunch(inner, &check, 0);  // 0: one task when nested
  return 0;
}

TEST_F(ThreadPoolTest, NestedLaunchRunsSeriallyOnTheTaskThread) {
  ASSERT_TRUE(SetNumThreads(2));
  Nested nested;
  EXPECT_FALSE(InParallelTask());
  ASSERT_EQ(TFBackendParallelLaunch(&OuterTask, &nested, 4), 0);
  EXPECT_FALSE(InParallelTask());
  EXPECT_EQ(nested.inner_runs, 4 * 4);
  EXPECT_EQ(nested.wrong_thread, 0);
  EXPECT_EQ(nested.inner_result, 0);
  EXPECT_EQ(nested.in_task, 4);
}

int32_t FailOnTaskThree(int32_t task, int32_t, void* closure) {
  static_cast<std::atomic<int>*>(closure)->fetch_add(1);
  return task == 3 ? 42 : 0;
}

TEST_F(ThreadPoolTest, ATaskErrorPropagatesAndTheOtherTasksStillRun) {
  for (int width : {1, 2, 4}) {
    ASSERT_TRUE(SetNumThreads(width));
    std::atomic<int> runs{0};
    EXPECT_EQ(TFBackendParallelLaunch(&FailOnTaskThree, &runs, 6), 42) << "width " << width;
    EXPECT_EQ(runs, 6);
    // The pool is usable after a failure.
    ExpectEachTaskOnce(5, 5);
  }
}

TEST_F(ThreadPoolTest, BadLaunchArgumentsFail) {
  std::atomic<int> runs{0};
  EXPECT_NE(TFBackendParallelLaunch(nullptr, nullptr, 2), 0);
  EXPECT_NE(TFBackendParallelLaunch(&FailOnTaskThree, &runs, -1), 0);
  EXPECT_EQ(runs, 0);
}

int32_t TrySetWidth(int32_t, int32_t, void* closure) {
  std::string* error = static_cast<std::string*>(closure);
  return SetNumThreads(3, error) ? 1 : 0;
}

TEST_F(ThreadPoolTest, SetNumThreadsValidatesAndRestoresTheDefault) {
  std::string error;
  EXPECT_FALSE(SetNumThreads(kMaxThreads + 1, &error));
  EXPECT_NE(error.find("at most"), std::string::npos) << error;
  ASSERT_TRUE(SetNumThreads(2));
  EXPECT_EQ(TFBackendParallelLaunch(&TrySetWidth, &error, 1), 0);
  EXPECT_NE(error.find("inside a parallel task"), std::string::npos) << error;
  EXPECT_EQ(NumThreads(), 2);
  ASSERT_TRUE(SetNumThreads(0));
  EXPECT_EQ(NumThreads(), DefaultNumThreads());
  EXPECT_GE(DefaultNumThreads(), 1);
}

int32_t TrySetPin(int32_t, int32_t, void* closure) {
  return SetPinThreads(true, static_cast<std::string*>(closure)) ? 1 : 0;
}

TEST_F(ThreadPoolTest, PinnedWorkersStillRunEveryTask) {
  bool was = PinThreads();
  ASSERT_TRUE(SetPinThreads(true));
  EXPECT_TRUE(PinThreads());
  ASSERT_TRUE(SetNumThreads(3));
  ExpectEachTaskOnce(7, 7);
  ASSERT_TRUE(SetPinThreads(false));
  std::string error;
  EXPECT_EQ(TFBackendParallelLaunch(&TrySetPin, &error, 1), 0);
  EXPECT_NE(error.find("SetPinThreads cannot be called from inside a parallel task"),
            std::string::npos)
      << error;
  EXPECT_FALSE(PinThreads());
  ASSERT_TRUE(SetPinThreads(was));
}

TEST_F(ThreadPoolTest, AForkedChildStartsItsOwnWorkers) {
  ASSERT_TRUE(SetNumThreads(2));
  ExpectEachTaskOnce(4, 4);  // the parent's workers exist now
  pid_t child = fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    // Only async-signal-safe exits from here: no gtest assertions in the child.
    Record record(4);
    int32_t result = TFBackendParallelLaunch(&RecordTask, &record, 4);
    bool all_once = true;
    for (auto& runs : record.runs) all_once = all_once && runs == 1;
    _exit(result == 0 && all_once && record.threads[1] != std::this_thread::get_id() ? 0 : 1);
  }
  int status = 0;
  ASSERT_EQ(waitpid(child, &status, 0), child);
  ASSERT_TRUE(WIFEXITED(status));
  EXPECT_EQ(WEXITSTATUS(status), 0);
  ExpectEachTaskOnce(4, 4);  // and the parent's pool still works
}

TEST_F(ThreadPoolTest, LaunchesFromSeveralThreadsTakeTurns) {
  ASSERT_TRUE(SetNumThreads(2));
  std::vector<std::thread> callers;
  std::atomic<int> failures{0};
  for (int c = 0; c < 3; ++c) {
    callers.emplace_back([&failures] {
      for (int i = 0; i < 50; ++i) {
        Record record(5);
        if (TFBackendParallelLaunch(&RecordTask, &record, 5) != 0) failures++;
        for (auto& runs : record.runs) {
          if (runs != 1) failures++;
        }
      }
    });
  }
  for (std::thread& t : callers) t.join();
  EXPECT_EQ(failures, 0);
}

}  // namespace
}  // namespace tunefarm::runtime
