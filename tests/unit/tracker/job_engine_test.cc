// The job engine with real builds and a real in-process fleet: jobs run as pipelines on a few
// fixed threads, every result is stored exactly once as it arrives, a killed worker's lease is
// measured elsewhere, a stop ends a job with what was measured, work waits for a worker of its
// key, builds stay within the build threads and go for each job's own target, and many jobs
// across several keys all complete.
#include "tracker/job_engine.h"

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstring>
#include <filesystem>
#include <gtest/gtest.h>
#include <map>
#include <mutex>
#include <set>
#include <thread>

#include "tests/unit/tracker/in_process_fleet.h"
#include "tuner/record_store.h"

namespace tunefarm::tracker {
namespace {

using testing::InProcessFleet;

constexpr char kEngineKey[] = "test-cpu";

std::string FreshDb(const std::string& name) {
  std::filesystem::path dir = std::filesystem::path(::testing::TempDir()) / ("tf_engine_" + name);
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  return (dir / "tf.db").string();
}

farm_api::JobSpec Spec(int trials, int batch_size, const std::string& key = kEngineKey,
                       const std::string& workload = "matmul:16,16,16:float32") {
  farm_api::JobSpec s;
  s.workload = workload;
  s.device_key = key;
  s.trials = trials;
  s.batch_size = batch_size;
  s.tuner = "random";
  s.measure.number = 1;
  s.measure.repeat = 2;
  s.measure.min_repeat_ms = 0;
  s.measure.slow_cutoff_ratio = 0;  // every candidate timed in full: repeat_seconds has 2
  return s;
}

// The engine with its store, and what it reported: each job's end (once) and last progress.
class EngineRun {
 public:
  EngineRun(const std::string& name, Dispatcher& dispatcher, LeaseSender& sender,
            JobEngineOptions options = {}) {
    auto store = tuner::RecordStore::Open(FreshDb(name));
    EXPECT_TRUE(store.ok()) << store.status();
    db_ = std::make_unique<SharedRecordStore>(*std::move(store));
    if (options.build_threads == 0) options.build_threads = 2;
    options.on_progress = [this](const std::string& id, const farm_api::JobProgress& p) {
      std::lock_guard<std::mutex> lock(mu_);
      progress_[id] = p;
    };
    options.on_end = [this](const std::string& id, const JobEnd& end) {
      std::lock_guard<std::mutex> lock(mu_);
      ++end_calls_[id];
      ends_[id] = end;
      cv_.notify_all();
    };
    engine_ = std::make_unique<JobEngine>(std::move(options), dispatcher, sender, *db_);
  }
  ~EngineRun() { engine_.reset(); }

  JobEngine& engine() { return *engine_; }

  // Waits (up to 120 s) for the job's end.
  JobEnd WaitEnd(const std::string& id) {
    std::unique_lock<std::mutex> lock(mu_);
    EXPECT_TRUE(cv_.wait_for(lock, std::chrono::seconds(120), [&] { return ends_.contains(id); }))
        << id << " did not end";
    return ends_.contains(id) ? ends_[id] : JobEnd{};
  }
  int EndCalls(const std::string& id) {
    std::lock_guard<std::mutex> lock(mu_);
    return end_calls_[id];
  }
  farm_api::JobProgress Progress(const std::string& id) {
    std::lock_guard<std::mutex> lock(mu_);
    return progress_[id];
  }
  std::vector<tuner::Record> History(const std::string& id) {
    auto h = db_->With([&](tuner::RecordStore& s) { return s.JobHistory(id); });
    EXPECT_TRUE(h.ok()) << h.status();
    return h.ok() ? *h : std::vector<tuner::Record>{};
  }

 private:
  std::unique_ptr<SharedRecordStore> db_;
  std::mutex mu_;
  std::condition_variable cv_;
  std::map<std::string, JobEnd> ends_;
  std::map<std::string, int> end_calls_;
  std::map<std::string, farm_api::JobProgress> progress_;
  std::unique_ptr<JobEngine> engine_;  // last: stopped before what its callbacks touch
};

std::set<std::string> Configs(const std::vector<tuner::Record>& records) {
  std::set<std::string> configs;
  for (const tuner::Record& r : records) configs.insert(r.config_json);
  return configs;
}

TEST(JobEngineTest, TwoWorkersMeasureEveryCandidateAndEachIsStoredOnce) {
  Dispatcher dispatcher;
  InProcessFleet fleet(dispatcher);
  const std::string w1 = fleet.AddWorker(kEngineKey);
  const std::string w2 = fleet.AddWorker(kEngineKey);
  EngineRun run("two", dispatcher, fleet);
  run.engine().Start("job-two", Spec(8, 4), nullptr);
  JobEnd end = run.WaitEnd("job-two");
  EXPECT_TRUE(end.status.ok()) << end.status;
  EXPECT_FALSE(end.interrupted);
  const std::vector<tuner::Record> history = run.History("job-two");
  ASSERT_EQ(history.size(), 8u);
  EXPECT_EQ(Configs(history).size(), 8u);
  std::set<std::string> measured_by;
  for (const tuner::Record& r : history) {
    EXPECT_EQ(r.error_kind, tuner::ErrorKind::kOk) << r.error_message;
    EXPECT_EQ(r.device_key, kEngineKey);
    EXPECT_EQ(r.repeat_seconds.size(), 2u);
    measured_by.insert(r.measured_by);
  }
  EXPECT_EQ(measured_by, (std::set<std::string>{w1, w2}));
  EXPECT_EQ(run.Progress("job-two").trials_done, 8);
  EXPECT_EQ(run.EndCalls("job-two"), 1);
  EXPECT_EQ(run.engine().running_jobs(), 0);
  EXPECT_EQ(dispatcher.LeasesOutstanding(), 0);
  EXPECT_EQ(dispatcher.QueuedFor(kEngineKey), 0);
}

TEST(JobEngineTest, AWorkerKilledMidMeasurementLosesNothing) {
  Dispatcher dispatcher;
  InProcessFleet fleet(dispatcher);
  const std::string doomed = fleet.AddWorker(kEngineKey);
  fleet.AddWorker(kEngineKey);
  fleet.KillMidMeasurement(doomed);
  EngineRun run("kill", dispatcher, fleet);
  run.engine().Start("job-kill", Spec(5, 5), nullptr);
  JobEnd end = run.WaitEnd("job-kill");
  EXPECT_TRUE(end.status.ok()) << end.status;
  EXPECT_TRUE(fleet.WaitUntilDead(doomed));
  const std::vector<tuner::Record> history = run.History("job-kill");
  ASSERT_EQ(history.size(), 5u);
  EXPECT_EQ(Configs(history).size(), 5u);
  for (const tuner::Record& r : history) {
    EXPECT_EQ(r.error_kind, tuner::ErrorKind::kOk) << r.error_message;
    EXPECT_NE(r.measured_by, doomed);
  }
  EXPECT_EQ(fleet.Reported(doomed), 0);
  EXPECT_EQ(dispatcher.WorkersFor(kEngineKey), 1);
}

TEST(JobEngineTest, AStopWhileNothingCanBeMeasuredEndsTheJobWithNoRecords) {
  Dispatcher dispatcher;
  InProcessFleet fleet(dispatcher);
  fleet.AddWorker("another-key");  // no worker of the job's key: its work waits
  EngineRun run("stop", dispatcher, fleet);
  run.engine().Start("job-stop", Spec(20, 4), nullptr);
  for (int i = 0; i < 400 && dispatcher.QueuedFor(kEngineKey) < 2; ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(25));
  }
  ASSERT_GE(dispatcher.QueuedFor(kEngineKey), 2);
  run.engine().Stop("job-stop");
  JobEnd end = run.WaitEnd("job-stop");
  EXPECT_TRUE(end.status.ok()) << end.status;
  EXPECT_TRUE(end.interrupted);
  EXPECT_TRUE(run.History("job-stop").empty());
  EXPECT_EQ(dispatcher.QueuedFor(kEngineKey), 0);
  EXPECT_EQ(run.engine().running_jobs(), 0);
  run.engine().Stop("job-stop");  // an ended job: ignored
  EXPECT_EQ(run.EndCalls("job-stop"), 1);
}

TEST(JobEngineTest, AStopWhileMeasuringKeepsWhatWasMeasured) {
  Dispatcher dispatcher;
  InProcessFleet fleet(dispatcher);
  fleet.AddWorker(kEngineKey);
  EngineRun run("stop_busy", dispatcher, fleet);
  run.engine().Start("job-stop-busy", Spec(200, 4), nullptr);
  for (int i = 0; i < 2000 && run.Progress("job-stop-busy").trials_done < 2; ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  run.engine().Stop("job-stop-busy");
  JobEnd end = run.WaitEnd("job-stop-busy");
  EXPECT_TRUE(end.interrupted);
  const std::vector<tuner::Record> history = run.History("job-stop-busy");
  EXPECT_GE(history.size(), 2u);
  EXPECT_LT(history.size(), 200u);
  EXPECT_EQ(static_cast<int>(history.size()), run.Progress("job-stop-busy").trials_done);
  EXPECT_EQ(Configs(history).size(), history.size());
  EXPECT_EQ(dispatcher.QueuedFor(kEngineKey), 0);
  EXPECT_EQ(dispatcher.LeasesOutstanding(), 0);
}

TEST(JobEngineTest, WorkWaitsForAWorkerOfItsKey) {
  Dispatcher dispatcher;
  InProcessFleet fleet(dispatcher);
  EngineRun run("wait", dispatcher, fleet);
  run.engine().Start("job-wait", Spec(3, 3), nullptr);
  for (int i = 0; i < 400 && dispatcher.QueuedFor(kEngineKey) < 3; ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(25));
  }
  EXPECT_EQ(dispatcher.QueuedFor(kEngineKey), 3);  // built while no worker was there
  const std::string late = fleet.AddWorker(kEngineKey);
  JobEnd end = run.WaitEnd("job-wait");
  EXPECT_TRUE(end.status.ok()) << end.status;
  const std::vector<tuner::Record> history = run.History("job-wait");
  ASSERT_EQ(history.size(), 3u);
  for (const tuner::Record& r : history) EXPECT_EQ(r.measured_by, late);
}

TEST(JobEngineTest, AnOversizedArtifactIsABuildErrorRecordedByTheTracker) {
  Dispatcher dispatcher;
  InProcessFleet fleet(dispatcher);
  fleet.AddWorker(kEngineKey);
  JobEngineOptions options;
  options.max_artifact_bytes = 100;
  EngineRun run("big", dispatcher, fleet, options);
  run.engine().Start("job-big", Spec(2, 2), nullptr);
  JobEnd end = run.WaitEnd("job-big");
  EXPECT_TRUE(end.status.ok()) << end.status;
  const std::vector<tuner::Record> history = run.History("job-big");
  ASSERT_EQ(history.size(), 2u);
  for (const tuner::Record& r : history) {
    EXPECT_EQ(r.error_kind, tuner::ErrorKind::kBuildError);
    EXPECT_NE(r.error_message.find("limit of 100 bytes"), std::string::npos) << r.error_message;
    EXPECT_EQ(r.measured_by, "tracker");
  }
  EXPECT_EQ(fleet.Reported(dispatcher.Workers(kEngineKey)[0].description.worker_id), 0);
}

TEST(JobEngineTest, AJobThatCannotStartEndsWithItsError) {
  Dispatcher dispatcher;
  InProcessFleet fleet(dispatcher);
  EngineRun run("bad", dispatcher, fleet);
  run.engine().Start("job-bad", Spec(2, 2, kEngineKey, "nosuchop:1,2,3"), nullptr);
  JobEnd end = run.WaitEnd("job-bad");
  EXPECT_EQ(end.status.code(), absl::StatusCode::kInvalidArgument) << end.status;
  EXPECT_EQ(run.engine().running_jobs(), 0);
}

// Leases go nowhere: the test reads the work itself (here, the libraries built for a board).
class CapturingSender final : public LeaseSender {
 public:
  void Send(std::vector<Assignment> assignments) override {
    std::lock_guard<std::mutex> lock(mu);
    for (Assignment& a : assignments) sent.push_back(std::move(a));
  }
  void Withdraw(std::vector<Withdrawal>) override {}
  std::mutex mu;
  std::vector<Assignment> sent;
};

TEST(JobEngineTest, BuildsStayWithinTheBuildThreadsAndCrossCompileForTheJobsTarget) {
  Dispatcher dispatcher;
  CapturingSender sender;
  farm_api::WorkerDescription board;
  board.worker_id = "pi-1";
  board.device_key = "rasp4b";
  ASSERT_TRUE(dispatcher.AddWorker(board, InProcessFleet::NowMs()).ok());
  JobEngineOptions options;
  options.build_threads = 2;
  EngineRun run("cross", dispatcher, sender, options);
  for (const char* id : {"job-a", "job-b", "job-c"}) {
    farm_api::JobSpec spec = Spec(6, 6, "rasp4b");
    spec.target = "llvm -mtriple=aarch64-linux-gnu";
    run.engine().Start(id, spec, nullptr);
  }
  // 18 candidates built; one is leased to the only worker, the rest wait for it.
  for (int i = 0; i < 1200 && dispatcher.QueuedFor("rasp4b") < 17; ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(25));
  }
  EXPECT_EQ(dispatcher.QueuedFor("rasp4b"), 17);
  EXPECT_LE(run.engine().peak_builds(), 2);
  EXPECT_EQ(run.engine().build_threads(), 2);
  std::lock_guard<std::mutex> lock(sender.mu);
  ASSERT_EQ(sender.sent.size(), 1u);
  const std::string& bytes = *sender.sent[0].work->library.bytes;
  ASSERT_GE(bytes.size(), 20u);
  EXPECT_EQ(bytes.substr(0, 4),
            "\x7f"
            "ELF");
  uint16_t machine = 0;
  std::memcpy(&machine, bytes.data() + 18, 2);
  EXPECT_EQ(machine, 183) << "not an AArch64 library (EM_AARCH64 = 183)";
}

// What whole-model tuning puts on the farm: 50 jobs over 5 keys at once, on the engine's fixed
// threads. All run from the start (none waits for another to finish), every job completes with
// its trials recorded exactly once, and each key's worker measured its own jobs only.
TEST(JobEngineTest, FiftyJobsAcrossFiveKeysAllCompleteWithEveryRecordOnce) {
  Dispatcher dispatcher;
  InProcessFleet fleet(dispatcher);
  const std::vector<std::string> keys = {"key-a", "key-b", "key-c", "key-d", "key-e"};
  std::map<std::string, std::string> worker_of;
  for (const std::string& key : keys) worker_of[key] = fleet.AddWorker(key);
  JobEngineOptions options;
  options.event_threads = 2;
  EngineRun run("fifty", dispatcher, fleet, options);
  std::vector<std::string> ids;
  for (int i = 0; i < 50; ++i) {
    const std::string id = "job-" + std::to_string(i);
    const int n = 8 * (1 + i % 4);
    const std::string workload = "matmul:" + std::to_string(n) + ",16,16:float32";
    farm_api::JobSpec spec = Spec(2, 2, keys[i % keys.size()], workload);
    spec.seed = static_cast<uint64_t>(i + 1);  // jobs of one workload try different configs
    run.engine().Start(id, spec, nullptr);
    ids.push_back(id);
  }
  EXPECT_EQ(run.engine().running_jobs(), 50);  // no queue of jobs in front of the engine
  for (const std::string& id : ids) {
    JobEnd end = run.WaitEnd(id);
    EXPECT_TRUE(end.status.ok()) << id << ": " << end.status;
  }
  for (size_t i = 0; i < ids.size(); ++i) {
    const std::vector<tuner::Record> history = run.History(ids[i]);
    EXPECT_EQ(history.size(), 2u) << ids[i];
    EXPECT_EQ(Configs(history).size(), history.size()) << ids[i];
    for (const tuner::Record& r : history) {
      EXPECT_EQ(r.error_kind, tuner::ErrorKind::kOk) << r.error_message;
      EXPECT_EQ(r.measured_by, worker_of[keys[i % keys.size()]]);
    }
    EXPECT_EQ(run.EndCalls(ids[i]), 1) << ids[i];
  }
  EXPECT_EQ(run.engine().running_jobs(), 0);
  EXPECT_EQ(dispatcher.LeasesOutstanding(), 0);
}

}  // namespace
}  // namespace tunefarm::tracker
