// A writer killed with SIGKILL mid-way through appending records must leave a database that
// reopens with every record whose commit returned.
#include <cstdint>
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include "tests/unit/tuner/record_store_test_util.h"
#include "tuner/record_store.h"

namespace tunefarm::tuner {
namespace {

// The child inserts records numbered by timestamp_ms and, after each commit returns, reports the
// number on `fd`. It never returns.
[[noreturn]] void InsertForever(const std::string& path, int fd) {
  auto store = RecordStore::Open(path);
  if (!store.ok()) _exit(2);
  for (int64_t i = 0;; ++i) {
    Record r = testing::SampleRecord({0.001 * static_cast<double>(i + 1)});
    r.timestamp_ms = i;
    if (!(*store)->Insert(r).ok()) _exit(3);
    if (write(fd, &i, sizeof(i)) != sizeof(i)) _exit(4);
  }
}

TEST(RecordStoreCrashTest, KilledWriterLosesNoCommittedRecord) {
  std::string path = testing::FreshDbPath("crash");
  ASSERT_TRUE(RecordStore::Open(path).ok());  // schema exists before the child starts
  int fds[2];
  ASSERT_EQ(pipe(fds), 0);
  pid_t child = fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    close(fds[0]);
    InsertForever(path, fds[1]);
  }
  close(fds[1]);
  int64_t last_committed = -1;
  // Kill after a few dozen commits: the child is then most likely inside its next transaction.
  while (last_committed < 40) {
    int64_t i = 0;
    ASSERT_EQ(read(fds[0], &i, sizeof(i)), static_cast<ssize_t>(sizeof(i)));
    last_committed = i;
  }
  ASSERT_EQ(kill(child, SIGKILL), 0);
  int status = 0;
  ASSERT_EQ(waitpid(child, &status, 0), child);
  EXPECT_TRUE(WIFSIGNALED(status));
  // Commits that returned after our last read are in the pipe; they must be in the db too.
  int64_t i = 0;
  while (read(fds[0], &i, sizeof(i)) == static_cast<ssize_t>(sizeof(i))) last_committed = i;
  close(fds[0]);

  auto store = RecordStore::Open(path);
  ASSERT_TRUE(store.ok()) << store.status();
  auto history = (*store)->JobHistory("job-1");
  ASSERT_TRUE(history.ok()) << history.status();
  // Every acknowledged record, in order, plus at most the one in flight when the kill came.
  ASSERT_GE(static_cast<int64_t>(history->size()), last_committed + 1);
  ASSERT_LE(static_cast<int64_t>(history->size()), last_committed + 2);
  for (size_t k = 0; k < history->size(); ++k) {
    EXPECT_EQ((*history)[k].timestamp_ms, static_cast<int64_t>(k));
  }
  EXPECT_TRUE((*store)->Insert(testing::SampleRecord({1.0})).ok());
}

}  // namespace
}  // namespace tunefarm::tuner
