// `tunefarm tune` as a process: killed mid-run (SIGKILL) it leaves a database that reopens with
// every finished record; interrupted (SIGINT, Ctrl-C) it stops cleanly with everything recorded.
#include <chrono>
#include <csignal>
#include <fcntl.h>
#include <filesystem>
#include <gtest/gtest.h>
#include <spawn.h>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

#include "compiler/space/config_json.h"
#include "tests/testing/files.h"
#include "tuner/record_store.h"
#include "tuner/templates/template_registry.h"

extern char** environ;

namespace tunefarm::tuner {
namespace {

std::string FreshDir(const std::string& name) {
  std::filesystem::path dir = std::filesystem::path(::testing::TempDir()) / ("tf_tunep_" + name);
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  return dir.string();
}

// Starts `tunefarm tune` on a small matmul with stdout and stderr sent to `log`.
pid_t StartTune(const std::string& db, const std::string& log) {
  std::vector<std::string> args = {TUNEFARM_BINARY,   "tune",   "--workload", "matmul:48,48,48",
                                   "--tuner",         "random", "--trials",   "400",
                                   "--batch-size",    "2",      "--repeat",   "1",
                                   "--min-repeat-ms", "1",      "--db",       db,
                                   "--no-progress"};
  std::vector<char*> argv;
  for (std::string& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, 1, log.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  posix_spawn_file_actions_adddup2(&actions, 1, 2);
  pid_t pid = -1;
  int rc = posix_spawn(&pid, argv[0], &actions, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  EXPECT_EQ(rc, 0) << "cannot start " << TUNEFARM_BINARY;
  return pid;
}

// Polls the database (a second connection, as a dashboard would) until it holds `n` records.
bool WaitForRecords(const std::string& db, int64_t n, pid_t pid) {
  auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
  while (std::chrono::steady_clock::now() < deadline) {
    if (std::filesystem::exists(db)) {
      auto store = RecordStore::Open(db);
      if (store.ok()) {
        auto count = (*store)->RecordCount();
        if (count.ok() && *count >= n) return true;
      }
    }
    int status = 0;
    if (waitpid(pid, &status, WNOHANG) == pid) return false;  // it ended early
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  return false;
}

void ExpectEveryRecordUsable(const std::string& db, int64_t at_least) {
  auto store = RecordStore::Open(db);
  ASSERT_TRUE(store.ok()) << store.status();
  auto count = (*store)->RecordCount();
  ASSERT_TRUE(count.ok());
  EXPECT_GE(*count, at_least);
  auto task = CreateTask(*ParseWorkloadKey("matmul:48,48,48"), target::Target::Host());
  ASSERT_TRUE(task.ok()) << task.status();
  auto records =
      (*store)->TaskRecords((*task)->key(), (*task)->target().str(),
                            (*store)->JobHistory("")->front().device_key, CacheFlush::kNone);
  ASSERT_TRUE(records.ok());
  EXPECT_EQ(static_cast<int64_t>(records->size()), *count);
  for (const Record& r : *records) {
    EXPECT_TRUE(space::ConfigFromJson((*task)->space(), r.config_json).ok()) << r.config_json;
  }
}

TEST(TuneProcessTest, KilledMidRunLeavesEveryFinishedRecord) {
  std::string dir = FreshDir("kill");
  std::string db = dir + "/tf.db";
  pid_t pid = StartTune(db, dir + "/log.txt");
  ASSERT_GT(pid, 0);
  bool reached = WaitForRecords(db, 6, pid);
  kill(pid, SIGKILL);
  int status = 0;
  waitpid(pid, &status, 0);
  ASSERT_TRUE(reached) << *fixtures::ReadFile(dir + "/log.txt");
  ExpectEveryRecordUsable(db, 6);
}

TEST(TuneProcessTest, InterruptStopsCleanlyWithEverythingRecorded) {
  std::string dir = FreshDir("sigint");
  std::string db = dir + "/tf.db";
  pid_t pid = StartTune(db, dir + "/log.txt");
  ASSERT_GT(pid, 0);
  bool reached = WaitForRecords(db, 4, pid);
  kill(pid, SIGINT);
  int status = 0;
  waitpid(pid, &status, 0);
  std::string log = *fixtures::ReadFile(dir + "/log.txt");
  ASSERT_TRUE(reached) << log;
  ASSERT_TRUE(WIFEXITED(status)) << log;
  EXPECT_EQ(WEXITSTATUS(status), 130) << "interrupted: 130, as every command that stops on Ctrl-C\n"
                                      << log;
  EXPECT_NE(log.find("stopped by request"), std::string::npos) << log;
  // No candidate was mistaken for a crash because the child saw the Ctrl-C too.
  EXPECT_EQ(log.find("errors=0"), log.find("errors=")) << log;
  ExpectEveryRecordUsable(db, 4);
}

}  // namespace
}  // namespace tunefarm::tuner
