// The slim binary (tunefarm-rpc-server) as a real process: usage errors exit 2 with one line,
// it measures a lease with itself as the measure child (--serve-measure), and SIGTERM drains it
// (Draining sent, exit 0). Skipped when the binary was not built beside this test binary.
#include <csignal>
#include <cstdio>
#include <filesystem>
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <unistd.h>
#include <vector>

#include "absl/strings/str_cat.h"
#include "runtime/measure/sha256.h"
#include "tests/testing/child_process.h"
#include "tests/testing/files.h"
#include "tests/unit/rpc_server/fake_tracker.h"
#include "tests/unit/rpc_server/test_kernels.h"

namespace tunefarm::rpc_server {
namespace {

using rpc_server::testing::FakeTracker;
using rpc_server::testing::MakeLease;
using ::testing::HasSubstr;
using ::testing::Not;
using tunefarm::fixtures::ChildProcess;

std::string SlimBinary() {
  std::error_code ec;
  std::filesystem::path self = std::filesystem::read_symlink("/proc/self/exe", ec);
  std::filesystem::path slim = self.parent_path() / "tunefarm-rpc-server";
  return !ec && std::filesystem::exists(slim) ? slim.string() : "";
}

// Fresh on every call, so a repeated test never reads an earlier run's output; RemoveLogs
// deletes them all.
std::vector<std::string>& Logs() {
  static std::vector<std::string> logs;
  return logs;
}
std::string LogPath(const std::string& name) {
  Logs().push_back(absl::StrCat(::testing::TempDir(), "/slim_", getpid(), "_", name, "_",
                                Logs().size(), ".log"));
  return Logs().back();
}
void RemoveLogs() {
  for (const std::string& log : Logs()) std::remove(log.c_str());
  Logs().clear();
}

TEST(SlimMainTest, UsageErrorsAreOneLineAndExitTwo) {
  const std::string slim = SlimBinary();
  if (slim.empty()) GTEST_SKIP() << "tunefarm-rpc-server is not built";
  ChildProcess missing_key({slim, "--tracker", "127.0.0.1:1"}, LogPath("usage"));
  EXPECT_EQ(missing_key.Wait(10), 2);
  EXPECT_EQ(missing_key.Log(), "tunefarm-rpc-server: --key DEVICE_KEY is required (see --help)\n");
  ChildProcess unknown({slim, "--tracker", "127.0.0.1:1", "--key", "k", "--frobnicate"},
                       LogPath("unknown"));
  EXPECT_EQ(unknown.Wait(10), 2);
  EXPECT_THAT(unknown.Log(), HasSubstr("unknown flag '--frobnicate'"));
  ChildProcess no_emulator(
      {slim, "--tracker", "127.0.0.1:1", "--key", "k", "--emulator", "no-such-emulator -L /x"},
      LogPath("emulator"));
  EXPECT_EQ(no_emulator.Wait(10), 2);
  EXPECT_EQ(no_emulator.Log(),
            "tunefarm-rpc-server: --emulator: no executable 'no-such-emulator' (on PATH) (see "
            "--help)\n");
  ChildProcess blank_emulator({slim, "--tracker", "127.0.0.1:1", "--key", "k", "--emulator", " "},
                              LogPath("blank"));
  EXPECT_EQ(blank_emulator.Wait(10), 2);
  EXPECT_THAT(blank_emulator.Log(), HasSubstr("--emulator needs a command"));
  RemoveLogs();
}

TEST(SlimMainTest, MeasuresWithItselfAndDrainsOnSigterm) {
  const std::string slim = SlimBinary();
  if (slim.empty()) GTEST_SKIP() << "tunefarm-rpc-server is not built";
  std::string error;
  const std::string library_path = rpc_server::testing::TestKernelLibrary(&error);
  if (library_path.empty()) GTEST_SKIP() << error;
  std::optional<std::string> library = fixtures::ReadFile(library_path);
  ASSERT_TRUE(library.has_value());
  const std::string token_file = fixtures::WriteTempFile("slim_token", "s3cret\n");

  FakeTracker tracker("s3cret");
  ASSERT_TRUE(tracker.ok());
  ChildProcess worker(
      {slim, "--tracker", tracker.address(), "--key", "slim-cpu", "--token-file", token_file},
      LogPath("run"));
  ASSERT_GT(worker.pid(), 0);
  std::vector<v1::Register> hello = tracker.WaitForRegistrations(1);
  ASSERT_EQ(hello.size(), 1u) << worker.Log();
  EXPECT_EQ(hello[0].device_key(), "slim-cpu");
  // A bare llvm is sent with this machine's architecture, which the tracker cannot guess.
  EXPECT_EQ(hello[0].target(), "llvm -mtriple=x86_64-linux-gnu");

  ASSERT_TRUE(
      tracker.Send(MakeLease(1, *library, runtime::measure::Sha256Hex(*library), "add_one")));
  std::optional<v1::WorkerMessage> result = tracker.WaitForResult(1);
  ASSERT_TRUE(result.has_value()) << worker.Log();
  EXPECT_EQ(result->result().outcome().error_kind(), "ok")
      << result->result().outcome().error_message();

  worker.Signal(SIGTERM);
  EXPECT_EQ(worker.Wait(20), 0) << worker.Log();
  EXPECT_TRUE(tracker.WaitFor([](const v1::WorkerMessage& m) { return m.has_draining(); }, 1));
  EXPECT_THAT(worker.Log(), Not(HasSubstr("error")));
  std::remove(token_file.c_str());
  std::error_code ec;  // the fixture's per-process folder, if nothing else is left in it
  std::filesystem::remove(std::filesystem::path(token_file).parent_path(), ec);
  RemoveLogs();
}

}  // namespace
}  // namespace tunefarm::rpc_server
