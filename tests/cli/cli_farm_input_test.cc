// Bad input to a real farm on 127.0.0.1 through the built `tunefarm` binary: a wrong or missing
// token, a device key no worker has, a target no worker of the key runs, a bad dashboard address.
// Each checks the exit code and the one-line reason, as a user would meet them.
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "tests/cli/tunefarm_binary.h"
#include "tests/testing/child_process.h"
#include "tests/testing/files.h"

namespace tunefarm {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

// A tracker (and optionally one worker of `worker_key`) as processes, with the farm's token.
class CliFarm {
 public:
  explicit CliFarm(const std::string& name, const std::string& worker_key = "") {
    const std::filesystem::path dir = std::filesystem::path(Scratch(name));
    std::filesystem::remove_all(dir);
    std::filesystem::create_directories(dir);
    token_file_ = (dir / "farm.token").string();
    std::ofstream(token_file_) << "s3cret+/=\n";
    const std::string port_file = (dir / "port").string();
    tracker_ = fixtures::ChildProcess(
        {TUNEFARM_BINARY, "tracker", "--listen", "127.0.0.1:0", "--db", (dir / "farm.db").string(),
         "--token-file", token_file_, "--port-file", port_file},
        (dir / "tracker.log").string());
    for (int i = 0; i < 300 && !port_; ++i) {
      std::ifstream in(port_file);
      int port = 0;
      if (in >> port && port > 0) port_ = port;
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    if (!worker_key.empty() && port_) {
      worker_ = fixtures::ChildProcess({TUNEFARM_BINARY, "worker", "--tracker", address(), "--key",
                                        worker_key, "--token-file", token_file_},
                                       (dir / "worker.log").string());
      for (int i = 0; i < 300; ++i) {
        Outcome listed = Tunefarm({"workers", "--tracker", address(), "--token-file", token_file_});
        if (listed.output.find(worker_key) != std::string::npos) break;
        std::this_thread::sleep_for(std::chrono::milliseconds(50));
      }
    }
  }
  bool ok() const { return port_.has_value(); }
  std::string address() const { return "127.0.0.1:" + std::to_string(port_.value_or(0)); }
  const std::string& token_file() const { return token_file_; }
  std::string TrackerLog() const { return tracker_.Log(); }

 private:
  std::string token_file_;
  std::optional<int> port_;
  fixtures::ChildProcess tracker_;
  fixtures::ChildProcess worker_;
};

TEST(CliFarmInputTest, AWrongOrMissingTokenIsAUsageErrorSayingWhatToGive) {
  CliFarm farm("token");
  ASSERT_TRUE(farm.ok()) << farm.TrackerLog();
  const std::string wrong = fixtures::WriteTempFile("wrong.token", "nope\n");
  for (const std::vector<std::string>& args : std::vector<std::vector<std::string>>{
           {"jobs", "--tracker", farm.address()},
           {"workers", "--tracker", farm.address(), "--token-file", wrong},
           {"best", "--tracker", farm.address(), "--token-file", wrong, "--workload",
            "matmul:8,8,8"},
           {"tune", "--tracker", farm.address(), "--token-file", wrong, "--key", "k", "--workload",
            "matmul:8,8,8"}}) {
    Outcome o = Tunefarm(args);
    EXPECT_EQ(o.code, 2) << args[0] << ": " << o.output;
    EXPECT_THAT(o.output, HasSubstr("refused the call: missing or wrong token")) << args[0];
    EXPECT_THAT(o.output, HasSubstr("--token-file")) << args[0];
  }
  // The token as the docs make it (base64: '+', '/', '=') works.
  Outcome right =
      Tunefarm({"jobs", "--tracker", farm.address(), "--token-file", farm.token_file()});
  EXPECT_EQ(right.code, 0) << right.output;
}

// A key nobody serves: the job waits and says so; a session says there is no idle worker (not
// that the tracker is unreachable).
TEST(CliFarmInputTest, AnUnknownDeviceKeyWaitsAndSaysSo) {
  CliFarm farm("unknown_key");
  ASSERT_TRUE(farm.ok()) << farm.TrackerLog();
  Outcome submitted =
      Tunefarm({"tune", "--tracker", farm.address(), "--token-file", farm.token_file(), "--key",
                "nosuchkey", "--workload", "matmul:8,8,8", "--trials", "2", "--detach"});
  EXPECT_EQ(submitted.code, 0) << submitted.output;
  Outcome jobs = Tunefarm({"jobs", "--tracker", farm.address(), "--token-file", farm.token_file()});
  EXPECT_THAT(jobs.output, HasSubstr("waiting: no worker with device key 'nosuchkey'"));
  const std::string lib = fixtures::WriteTempFile("unknown_key.so", "x");
  Outcome session = Tunefarm({"session", lib, "--tracker", farm.address(), "--token-file",
                              farm.token_file(), "--key", "nosuchkey", "--wait", "0.5"});
  EXPECT_EQ(session.code, 1) << session.output;
  EXPECT_THAT(session.output, HasSubstr("no idle worker with device key 'nosuchkey'"));
  EXPECT_THAT(session.output, Not(HasSubstr("unreachable")));
}

// Item 6's cause: a --target cuda job on CPU-only workers failed every trial; it is refused at
// submit, naming what the key's workers run.
TEST(CliFarmInputTest, AJobForATargetNoWorkerOfTheKeyRunsIsRefusedAtSubmit) {
  CliFarm farm("target", "cpu-only");
  ASSERT_TRUE(farm.ok()) << farm.TrackerLog();
  Outcome o = Tunefarm({"tune", "--tracker", farm.address(), "--token-file", farm.token_file(),
                        "--key", "cpu-only", "--target", "cuda", "--workload", "matmul:64,64,64"});
  EXPECT_EQ(o.code, 2) << o.output;
  EXPECT_THAT(o.output, HasSubstr("no worker of device key 'cpu-only' can run target 'cuda"));
  Outcome jobs =
      Tunefarm({"jobs", "--tracker", farm.address(), "--token-file", farm.token_file(), "--all"});
  EXPECT_THAT(jobs.output, HasSubstr("no jobs")) << jobs.output;
}

// Item 6: a job whose every trial failed ended "succeeded", rc 0.
TEST(CliFarmInputTest, AJobWhoseEveryTrialFailedFailsWithItsCommonestError) {
  // A worker whose measure child cannot run: every trial fails on it, the same way.
  ASSERT_EQ(setenv("TUNEFARM_MEASURE_PROGRAM", "/bin/false", 1), 0);
  CliFarm farm("all_failed", "all-failed");
  unsetenv("TUNEFARM_MEASURE_PROGRAM");
  ASSERT_TRUE(farm.ok()) << farm.TrackerLog();
  Outcome o = Tunefarm({"tune", "--tracker", farm.address(), "--token-file", farm.token_file(),
                        "--key", "all-failed", "--workload", "matmul:64,64,64", "--trials", "3",
                        "--batch-size", "3", "--no-progress"});
  EXPECT_EQ(o.code, 1) << o.output;
  EXPECT_THAT(o.output, HasSubstr("failed: no trial succeeded: 3 of 3 ended runtime_error"));
  Outcome jobs =
      Tunefarm({"jobs", "--tracker", farm.address(), "--token-file", farm.token_file(), "--all"});
  EXPECT_THAT(jobs.output, HasSubstr(" failed ")) << jobs.output;
}

// Item 2: two trackers shared one dashboard port (SO_REUSEPORT), answering at random.
TEST(CliFarmInputTest, ASecondDashboardOnATakenPortStopsItsTracker) {
  CliFarm first("dashboard_first");
  ASSERT_TRUE(first.ok()) << first.TrackerLog();
  // The first tracker's gRPC port is taken on 127.0.0.1: a dashboard there cannot listen.
  const std::string db = Scratch("dashboard_second.db");
  std::filesystem::remove(db);
  Outcome o =
      Tunefarm({"tracker", "--listen", "127.0.0.1:0", "--db", db, "--http", first.address()});
  EXPECT_EQ(o.code, 1) << o.output;
  EXPECT_THAT(o.output, HasSubstr("dashboard cannot listen on " + first.address()));
}

TEST(CliFarmInputTest, ABadDashboardAddressIsRefusedBeforeTheDatabaseIsCreated) {
  const std::string db = Scratch("dashboard.db");
  std::filesystem::remove(db);
  Outcome o = Tunefarm({"tracker", "--listen", "127.0.0.1:0", "--db", db, "--http", "nonsense"});
  EXPECT_EQ(o.code, 2) << o.output;
  EXPECT_THAT(o.output, HasSubstr("dashboard address 'nonsense' needs HOST:PORT"));
  EXPECT_FALSE(std::filesystem::exists(db));
}

TEST(CliFarmInputTest, FarmOnlyFlagsOfALocalModelTuneAreRefused) {
  // Refused before the model is read.
  const std::string model = fixtures::WriteTempFile("farm_only.onnx", "never parsed");
  Outcome o = Tunefarm({"model", "tune", model, "--detach"});
  EXPECT_EQ(o.code, 2) << o.output;
  EXPECT_THAT(o.output, HasSubstr("--detach applies to a farm tune (with --tracker"));
  Outcome timing = Tunefarm({"tune", "--workload", "matmul:8,8,8", "--timing", "lukewarm"});
  EXPECT_EQ(timing.code, 2) << timing.output;
  EXPECT_THAT(timing.output, HasSubstr("--timing: must be hot, weights or cold, got 'lukewarm'"));
}

}  // namespace
}  // namespace tunefarm
