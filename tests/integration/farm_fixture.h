// A farm on 127.0.0.1 for integration tests: a real tracker (in this process or as a
// `tunefarm tracker` process), real `tunefarm worker` processes, and a FarmClient, all on
// ephemeral ports, in a fresh directory per test.
#pragma once

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <gtest/gtest.h>
#include <memory>
#include <string>
#include <thread>
#include <unistd.h>
#include <vector>

#include "absl/strings/str_cat.h"
#include "client/farm_client.h"
#include "tests/testing/child_process.h"
#include "tracker/service/tracker_server.h"
#include "tuner/record_store.h"

namespace tunefarm::integration {

using fixtures::ChildProcess;

// Each test process is a host of its own for the timing lock (runtime/measure/
// host_timing_lock.h): ctest runs farm tests side by side, and one test's workers and sessions must
// not wait for another test's timings (under a sanitizer, past a session call's deadline). Set
// before main, so before any thread; the workers a test starts inherit it. An explicit
// TUNEFARM_TIMING_LOCK wins.
inline const bool kTimingLockOfThisTest = [] {
  const std::string path =
      absl::StrCat(::testing::TempDir(), "/tunefarm-timing-", ::getpid(), ".lock");
  return setenv("TUNEFARM_TIMING_LOCK", path.c_str(), /*overwrite=*/0) == 0;
}();

class Farm {
 public:
  explicit Farm(const std::string& name, std::string token = "") : token_(std::move(token)) {
    // ctest runs tests of one fixture in parallel processes: the pid keeps their files apart.
    dir_ = (std::filesystem::path(::testing::TempDir()) /
            absl::StrCat("tf_farm_", name, "_", ::getpid()))
               .string();
    std::filesystem::remove_all(dir_);
    std::filesystem::create_directories(dir_);
    db_ = dir_ + "/farm.db";
    if (!token_.empty()) std::ofstream(TokenFile()) << token_ << "\n";
  }

  // Dispatcher settings short enough that lost workers are noticed within a test.
  static tracker::TrackerServerOptions FastOptions() {
    tracker::TrackerServerOptions o;
    o.listen = "127.0.0.1:0";
    o.heartbeat_interval_ms = 300;
    o.dispatcher.heartbeat_timeout_ms = 2000;
    o.dispatcher.lease_slack_ms = 5000;
    o.tick_interval_ms = 50;
    return o;
  }

  // A tracker in this process (ASSERTs on failure).
  void StartTracker(tracker::TrackerServerOptions options = FastOptions()) {
    options.db_path = db_;
    options.token = token_;
    absl::StatusOr<std::unique_ptr<tracker::TrackerServer>> server =
        tracker::TrackerServer::Start(options);
    ASSERT_TRUE(server.ok()) << server.status();
    server_ = *std::move(server);
    port_ = server_->port();
  }
  void StopTracker() { server_.reset(); }
  tracker::TrackerServer* server() { return server_.get(); }

  // `tunefarm tracker` as a process; `port` 0 picks one (and later restarts reuse it).
  ChildProcess StartTrackerProcess(int port = 0) {
    const std::string port_file = absl::StrCat(dir_, "/port.", ++tracker_starts_);
    std::vector<std::string> argv = {
        TUNEFARM_BINARY, "tracker", "--listen",    absl::StrCat("127.0.0.1:", port),
        "--db",          db_,       "--port-file", port_file};
    if (!token_.empty()) argv.insert(argv.end(), {"--token-file", TokenFile()});
    ChildProcess p(argv, absl::StrCat(dir_, "/tracker.log"));
    for (int i = 0; i < 600 && !std::filesystem::exists(port_file); ++i) {
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    std::ifstream(port_file) >> port_;
    return p;
  }

  // `builds`: a `tunefarm worker` that compiles its own candidates; else --no-build (the tracker
  // builds them, as for a board running the slim server).
  ChildProcess StartWorker(const std::string& key, bool builds = true) {
    return StartWorkerProcess(
        key, builds ? std::vector<std::string>{} : std::vector<std::string>{"--no-build"});
  }
  // `tunefarm worker --build-only [--parallel N]`: builds for the key's devices, measures nothing.
  // `target` non-empty: it cross-compiles for that target (a board's).
  ChildProcess StartBuilder(const std::string& key, int parallel = 1,
                            const std::string& target = "") {
    std::vector<std::string> flags = {"--build-only", "--parallel", std::to_string(parallel)};
    if (!target.empty()) flags.insert(flags.end(), {"--target", target});
    return StartWorkerProcess(key, flags);
  }
  // A `tunefarm worker` with more flags (`--device opencl:0:0`).
  ChildProcess StartWorkerWithFlags(const std::string& key, const std::vector<std::string>& flags) {
    return StartWorkerProcess(key, flags);
  }
  // A `tunefarm worker` with VAR=VALUE settings in its environment only (set through env(1): a
  // setenv() here would race with the tracker's threads reading the environment).
  ChildProcess StartWorkerWithEnvironment(const std::string& key,
                                          const std::vector<std::string>& environment) {
    return StartWorkerProcess(key, {}, environment);
  }
  // Any other program of the farm (a board's worker under an emulator), logging to dir/NAME.log.
  ChildProcess StartProgram(const std::vector<std::string>& argv, const std::string& name) {
    return ChildProcess(argv, absl::StrCat(dir_, "/", name, ".log"));
  }

  std::string address() const { return absl::StrCat("127.0.0.1:", port_); }
  int port() const { return port_; }
  const std::string& db() const { return db_; }
  const std::string& dir() const { return dir_; }
  std::string TokenFile() const { return dir_ + "/token"; }

  std::unique_ptr<client::FarmClient> Client(const std::string& token) const {
    absl::StatusOr<std::unique_ptr<client::FarmClient>> c =
        client::FarmClient::Connect(client::FarmClientOptions{address(), token, "", 30});
    EXPECT_TRUE(c.ok()) << c.status();
    return c.ok() ? *std::move(c) : nullptr;
  }
  std::unique_ptr<client::FarmClient> Client() const { return Client(token_); }

  // Polls ListWorkers until `n` workers of `key` are connected.
  bool WaitForWorkers(const std::string& key, size_t n, double timeout_s = 30) {
    auto client = Client();
    auto deadline = Deadline(timeout_s);
    while (std::chrono::steady_clock::now() < deadline) {
      auto workers = client->ListWorkers(key);
      if (workers.ok() && workers->size() >= n) return true;
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
    return false;
  }

  // Polls GetJob until the job is finished (or, with `until_paused`, paused); the last status
  // seen otherwise.
  farm_api::JobStatus WaitForJob(const std::string& id, double timeout_s = 120,
                                 bool until_paused = false) {
    auto client = Client();
    farm_api::JobStatus last;
    auto deadline = Deadline(timeout_s);
    while (std::chrono::steady_clock::now() < deadline) {
      auto job = client->GetJob(id);
      if (job.ok()) {
        last = *job;
        if (farm_api::IsFinished(job->state)) break;
        if (until_paused && job->state == farm_api::JobState::kPaused) break;
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
    return last;
  }

  // The job's records, read through a second connection as a dashboard would.
  std::vector<tuner::Record> JobRecords(const std::string& job_id) const {
    auto store = tuner::RecordStore::Open(db_);
    EXPECT_TRUE(store.ok()) << store.status();
    if (!store.ok()) return {};
    auto records = (*store)->JobHistory(job_id);
    EXPECT_TRUE(records.ok()) << records.status();
    return records.ok() ? *records : std::vector<tuner::Record>{};
  }

  static std::chrono::steady_clock::time_point Deadline(double seconds) {
    return std::chrono::steady_clock::now() +
           std::chrono::milliseconds(static_cast<int64_t>(seconds * 1000));
  }

 private:
  ChildProcess StartWorkerProcess(const std::string& key, const std::vector<std::string>& flags,
                                  const std::vector<std::string>& environment = {}) {
    const int n = ++workers_started_;
    std::vector<std::string> argv = {
        TUNEFARM_BINARY, "worker", "--tracker",  address(),
        "--key",         key,      "--work-dir", absl::StrCat(dir_, "/worker", n)};
    argv.insert(argv.end(), flags.begin(), flags.end());
    if (!environment.empty()) {
      argv.insert(argv.begin(), environment.begin(), environment.end());
      argv.insert(argv.begin(), "/usr/bin/env");
    }
    if (!token_.empty()) argv.insert(argv.end(), {"--token-file", TokenFile()});
    return ChildProcess(argv, absl::StrCat(dir_, "/worker", n, ".log"));
  }

  std::string dir_;
  std::string db_;
  std::string token_;
  std::unique_ptr<tracker::TrackerServer> server_;
  int port_ = 0;
  int tracker_starts_ = 0;
  int workers_started_ = 0;
};

// A small fast job: every candidate builds and measures in milliseconds.
inline farm_api::JobSpec SmallJob(const std::string& key, int trials) {
  farm_api::JobSpec spec;
  spec.workload = "matmul:32,32,32:float32";
  spec.device_key = key;
  spec.trials = trials;
  spec.tuner = "random";
  spec.batch_size = 4;
  spec.measure.repeat = 2;
  spec.measure.min_repeat_ms = 5;
  return spec;
}

// Every config appears once: no record lost to a retry was stored twice.
inline bool NoDuplicateConfigs(const std::vector<tuner::Record>& records) {
  std::set<std::string> seen;
  for (const tuner::Record& r : records) {
    if (!seen.insert(r.config_json).second) return false;
  }
  return true;
}

}  // namespace tunefarm::integration
