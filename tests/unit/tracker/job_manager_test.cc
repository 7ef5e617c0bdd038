// The job manager against an in-process fleet (real builds, real measurements in child
// processes): a job ends with exactly its trials recorded, two jobs share the workers, a cancel
// keeps what was measured, bad submissions store nothing, a job without workers says why it
// waits and holds nobody back, and a manager destroyed mid-job resumes the job from the
// database.
#include "tracker/job_manager.h"

#include <chrono>
#include <filesystem>
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <optional>
#include <set>
#include <sqlite3.h>
#include <thread>
#include <unistd.h>

#include "tests/testing/fake_clock.h"
#include "tests/testing/files.h"
#include "tests/unit/tracker/in_process_fleet.h"
#include "tracker/job_table.h"
#include "tuner/record_store.h"

namespace tunefarm::tracker {
namespace {

using ::testing::HasSubstr;
using testing::InProcessFleet;
using ::testing::MatchesRegex;

constexpr char kManagerKey[] = "test-cpu";

farm_api::JobSpec Spec(const std::string& workload, int trials, int batch_size,
                       const std::string& key = kManagerKey) {
  farm_api::JobSpec s;
  s.workload = workload;
  s.device_key = key;
  s.trials = trials;
  s.batch_size = batch_size;
  s.tuner = "random";  // no model training: the tests are about the manager
  s.measure.number = 1;
  s.measure.repeat = 1;
  s.measure.min_repeat_ms = 0;
  return s;
}

class JobManagerTest : public ::testing::Test {
 protected:
  void SetUp() override {
    std::filesystem::path dir = std::filesystem::path(::testing::TempDir()) /
                                ("tf-job-manager-" + std::to_string(::getpid()));
    std::filesystem::create_directories(dir);
    db_ = (dir /
           (std::string(::testing::UnitTest::GetInstance()->current_test_info()->name()) + ".db"))
              .string();
    for (const char* suffix : {"", "-wal", "-shm"}) std::filesystem::remove(db_ + suffix);
    fleet_ = std::make_unique<InProcessFleet>(dispatcher_);
  }

  void TearDown() override {
    manager_.reset();  // before the fleet, dispatcher and table it uses
    table_.reset();
    fleet_.reset();
  }

  JobManagerOptions Options() const {
    JobManagerOptions o;
    o.build_parallelism = 2;
    return o;
  }

  // As a (re)starting tracker: its own connections to the database.
  JobManager& StartManager(JobManagerOptions o) {
    manager_.reset();
    absl::StatusOr<std::unique_ptr<JobTable>> table = JobTable::Open(db_);
    absl::StatusOr<std::unique_ptr<tuner::RecordStore>> records = tuner::RecordStore::Open(db_);
    EXPECT_TRUE(table.ok()) << table.status();
    EXPECT_TRUE(records.ok()) << records.status();
    table_ = *std::move(table);
    absl::StatusOr<std::unique_ptr<JobManager>> m =
        JobManager::Create(o, dispatcher_, *fleet_, *table_, *std::move(records));
    EXPECT_TRUE(m.ok()) << m.status();
    manager_ = *std::move(m);
    return *manager_;
  }

  // Waits (up to 60 s) until `done` holds for the job's status; returns the last status.
  template <typename Pred>
  farm_api::JobStatus WaitFor(const std::string& id, Pred done) {
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
    absl::StatusOr<farm_api::JobStatus> s = manager_->Get(id);
    EXPECT_TRUE(s.ok()) << s.status();
    while (s.ok() && !done(*s) && std::chrono::steady_clock::now() < deadline) {
      s = manager_->WaitForChange(id, s->version, 1000);
      EXPECT_TRUE(s.ok()) << s.status();
    }
    EXPECT_TRUE(s.ok() && done(*s)) << "timed out; message: " << (s.ok() ? s->message : "");
    return s.ok() ? *s : farm_api::JobStatus{};
  }
  farm_api::JobStatus WaitFinished(const std::string& id) {
    return WaitFor(id, [](const farm_api::JobStatus& s) { return farm_api::IsFinished(s.state); });
  }

  std::vector<tuner::Record> History(const std::string& id) const {
    absl::StatusOr<std::unique_ptr<tuner::RecordStore>> store = tuner::RecordStore::Open(db_);
    EXPECT_TRUE(store.ok()) << store.status();
    absl::StatusOr<std::vector<tuner::Record>> h = (*store)->JobHistory(id);
    EXPECT_TRUE(h.ok()) << h.status();
    return h.ok() ? *h : std::vector<tuner::Record>{};
  }

  JobRow TableRow(const std::string& id) const {
    absl::StatusOr<std::unique_ptr<JobTable>> table = JobTable::Open(db_);
    EXPECT_TRUE(table.ok()) << table.status();
    absl::StatusOr<JobRow> row = (*table)->Get(id);
    EXPECT_TRUE(row.ok()) << row.status();
    return row.ok() ? *row : JobRow{};
  }

  static std::set<std::string> Configs(const std::vector<tuner::Record>& records) {
    std::set<std::string> configs;
    for (const tuner::Record& r : records) configs.insert(r.config_json);
    return configs;
  }

  std::string db_;
  std::unique_ptr<JobTable> table_;
  Dispatcher dispatcher_;
  std::unique_ptr<InProcessFleet> fleet_;
  std::unique_ptr<JobManager> manager_;
};

TEST_F(JobManagerTest, JobCompletesWithExactlyItsTrials) {
  fleet_->AddWorker(kManagerKey);
  fleet_->AddWorker(kManagerKey);
  JobManager& m = StartManager(Options());
  absl::StatusOr<farm_api::JobStatus> submitted = m.Submit(Spec("matmul:16,16,16:float32", 6, 3));
  ASSERT_TRUE(submitted.ok()) << submitted.status();
  EXPECT_THAT(submitted->id, MatchesRegex("job-[0-9a-f]{8}"));
  EXPECT_EQ(submitted->workload_key, "matmul:16,16,16:float32");
  EXPECT_EQ(submitted->trials, 6);

  farm_api::JobStatus done = WaitFinished(submitted->id);
  EXPECT_EQ(done.state, farm_api::JobState::kSucceeded) << done.message;
  EXPECT_EQ(done.message, "done");
  EXPECT_EQ(done.progress.trials_done, 6);
  EXPECT_GT(done.progress.best_seconds, 0);
  EXPECT_GT(done.progress.best_gflops, 0);
  EXPECT_FALSE(done.progress.best_config_json.empty());
  const std::vector<tuner::Record> records = History(submitted->id);
  EXPECT_EQ(records.size(), 6u);
  EXPECT_EQ(Configs(records).size(), 6u);
  for (const tuner::Record& r : records) {
    EXPECT_EQ(r.device_key, kManagerKey);
    EXPECT_EQ(r.error_kind, tuner::ErrorKind::kOk) << r.error_message;
  }
  EXPECT_EQ(done.progress.errors, 0);
  EXPECT_EQ(TableRow(submitted->id).status.state, farm_api::JobState::kSucceeded);
  std::vector<farm_api::JobStatus> listed = m.List(/*include_finished=*/true, 10);
  ASSERT_EQ(listed.size(), 1u);
  EXPECT_EQ(listed[0].id, submitted->id);
  EXPECT_TRUE(m.List(/*include_finished=*/false, 10).empty());
}

TEST_F(JobManagerTest, TimesComeFromTheInjectedClock) {
  fleet_->AddWorker(kManagerKey);
  fixtures::FakeClock clock(5'000'000);
  JobManagerOptions o = Options();
  o.clock = &clock;
  JobManager& m = StartManager(o);
  absl::StatusOr<farm_api::JobStatus> submitted = m.Submit(Spec("matmul:16,16,16:float32", 2, 2));
  ASSERT_TRUE(submitted.ok()) << submitted.status();
  EXPECT_EQ(submitted->created_ms, 5'000'000);
  clock.Advance(1000);
  farm_api::JobStatus done = WaitFinished(submitted->id);
  EXPECT_EQ(done.state, farm_api::JobState::kSucceeded) << done.message;
  EXPECT_EQ(done.created_ms, 5'000'000);
  EXPECT_EQ(done.updated_ms, 5'001'000);
  for (const tuner::Record& r : History(submitted->id)) EXPECT_EQ(r.timestamp_ms, 5'001'000);
}

TEST_F(JobManagerTest, TwoJobsShareTheWorkers) {
  fleet_->AddWorker(kManagerKey);
  fleet_->AddWorker(kManagerKey);
  JobManager& m = StartManager(Options());
  absl::StatusOr<farm_api::JobStatus> a = m.Submit(Spec("matmul:16,16,16:float32", 6, 3));
  farm_api::JobSpec heavier = Spec("matmul:16,16,32:float32", 6, 3);
  heavier.priority = 3;
  heavier.tuner = "xgb";  // the model-based default, warmed from the other shape's records
  heavier.transfer = true;
  absl::StatusOr<farm_api::JobStatus> b = m.Submit(heavier);
  ASSERT_TRUE(a.ok() && b.ok());
  EXPECT_NE(a->id, b->id);
  std::set<std::string> measured_by;
  for (const std::string& id : {a->id, b->id}) {
    farm_api::JobStatus done = WaitFinished(id);
    EXPECT_EQ(done.state, farm_api::JobState::kSucceeded) << done.message;
    const std::vector<tuner::Record> records = History(id);
    EXPECT_EQ(records.size(), 6u);
    EXPECT_EQ(Configs(records).size(), 6u);
    for (const tuner::Record& r : records) measured_by.insert(r.measured_by);
  }
  EXPECT_EQ(measured_by.size(), 2u);  // both workers measured
}

TEST_F(JobManagerTest, CancelKeepsTheRecordsAndEndsCancelled) {
  fleet_->AddWorker(kManagerKey);
  JobManager& m = StartManager(Options());
  absl::StatusOr<farm_api::JobStatus> job = m.Submit(Spec("matmul:16,16,16:float32", 200, 2));
  ASSERT_TRUE(job.ok()) << job.status();
  WaitFor(job->id, [](const farm_api::JobStatus& s) { return s.progress.trials_done >= 3; });
  absl::StatusOr<farm_api::JobStatus> cancelled = m.Cancel(job->id);
  ASSERT_TRUE(cancelled.ok()) << cancelled.status();
  farm_api::JobStatus done = WaitFinished(job->id);
  EXPECT_EQ(done.state, farm_api::JobState::kCancelled);
  EXPECT_GE(done.progress.trials_done, 3);
  EXPECT_LT(done.progress.trials_done, 200);
  const std::vector<tuner::Record> records = History(job->id);
  EXPECT_EQ(static_cast<int>(records.size()), done.progress.trials_done);
  EXPECT_EQ(Configs(records).size(), records.size());
  EXPECT_EQ(TableRow(job->id).status.state, farm_api::JobState::kCancelled);
  // Cancelling again (or a finished job) changes nothing.
  absl::StatusOr<farm_api::JobStatus> again = m.Cancel(job->id);
  ASSERT_TRUE(again.ok());
  EXPECT_EQ(again->state, farm_api::JobState::kCancelled);
  EXPECT_EQ(m.Cancel("job-nothere").status().code(), absl::StatusCode::kNotFound);
}

TEST_F(JobManagerTest, BadSubmissionsAreErrorsAndStoreNothing) {
  JobManagerOptions o = Options();
  o.max_trials = 1000;
  JobManager& m = StartManager(o);
  struct Case {
    farm_api::JobSpec spec;
    const char* message;
  };
  farm_api::JobSpec unknown = Spec("nosuchop:1,2,3:float32", 6, 3);
  farm_api::JobSpec script;
  script = Spec("", 6, 3);
  script.script_source = "x = cfg[\"nope\"]\n";
  script.script_name = "bad.te";
  farm_api::JobSpec zero = Spec("matmul:16,16,16:float32", 0, 3);
  farm_api::JobSpec huge = Spec("matmul:16,16,16:float32", 1001, 3);
  farm_api::JobSpec no_key = Spec("matmul:16,16,16:float32", 6, 3, "");
  farm_api::JobSpec bad_tuner = Spec("matmul:16,16,16:float32", 6, 3);
  bad_tuner.tuner = "telepathy";
  farm_api::JobSpec bad_priority = Spec("matmul:16,16,16:float32", 6, 3);
  bad_priority.priority = 0;
  farm_api::JobSpec bad_batch = Spec("matmul:16,16,16:float32", 6, 0);
  farm_api::JobSpec both = Spec("matmul:16,16,16:float32", 6, 3);
  both.script_source = "x = 1\n";
  for (const Case& c :
       {Case{unknown, "nosuchop"}, Case{script, "bad.te:1:9"},
        Case{zero, "trials must be in 1..1000"}, Case{huge, "got 1001"}, Case{no_key, "device_key"},
        Case{bad_tuner, "telepathy"}, Case{bad_priority, "priority"}, Case{bad_batch, "batch_size"},
        Case{both, "exactly one"}}) {
    absl::StatusOr<farm_api::JobStatus> s = m.Submit(c.spec);
    ASSERT_FALSE(s.ok()) << c.message;
    EXPECT_EQ(s.status().code(), absl::StatusCode::kInvalidArgument) << s.status();
    EXPECT_THAT(s.status().message(), HasSubstr(c.message));
  }
  EXPECT_TRUE(m.List(/*include_finished=*/true, 0).empty());
  absl::StatusOr<std::unique_ptr<JobTable>> table = JobTable::Open(db_);
  ASSERT_TRUE(table.ok());
  absl::StatusOr<std::vector<JobRow>> rows = (*table)->List(true, 0);
  ASSERT_TRUE(rows.ok());
  EXPECT_TRUE(rows->empty());
}

TEST_F(JobManagerTest, TooManyJobsIsResourceExhausted) {
  JobManagerOptions o = Options();
  o.max_jobs = 1;
  JobManager& m = StartManager(o);
  // No worker has this key: the first job stays unfinished.
  absl::StatusOr<farm_api::JobStatus> first =
      m.Submit(Spec("matmul:16,16,16:float32", 3, 3, "nobody"));
  ASSERT_TRUE(first.ok()) << first.status();
  absl::StatusOr<farm_api::JobStatus> second =
      m.Submit(Spec("matmul:16,16,16:float32", 3, 3, "nobody"));
  ASSERT_FALSE(second.ok());
  EXPECT_EQ(second.status().code(), absl::StatusCode::kResourceExhausted);
  EXPECT_THAT(second.status().message(), HasSubstr("max_jobs=1"));
  EXPECT_EQ(m.List(/*include_finished=*/true, 0).size(), 1u);
  // A cancelled job frees its place.
  ASSERT_TRUE(m.Cancel(first->id).ok());
  EXPECT_EQ(WaitFinished(first->id).state, farm_api::JobState::kCancelled);
  EXPECT_TRUE(m.Submit(Spec("matmul:16,16,16:float32", 3, 3, "nobody")).ok());
}

TEST_F(JobManagerTest, WaitsForAWorkerOfItsKeyAndSaysSo) {
  JobManager& m = StartManager(Options());
  absl::StatusOr<farm_api::JobStatus> job =
      m.Submit(Spec("matmul:16,16,16:float32", 3, 3, "rasp4b"));
  ASSERT_TRUE(job.ok()) << job.status();
  const std::string waiting = "waiting: no worker with device key 'rasp4b' is connected";
  EXPECT_EQ(job->message, waiting);
  farm_api::JobStatus s = WaitFor(job->id, [](const farm_api::JobStatus& s) {
    return s.state == farm_api::JobState::kRunning;
  });
  EXPECT_EQ(s.message, waiting);
  EXPECT_EQ(s.progress.trials_done, 0);
  // Once a worker of the key connects, the job goes on and completes.
  fleet_->AddWorker("rasp4b");
  farm_api::JobStatus done = WaitFinished(job->id);
  EXPECT_EQ(done.state, farm_api::JobState::kSucceeded) << done.message;
  EXPECT_EQ(History(job->id).size(), 3u);
}

TEST_F(JobManagerTest, ResumesAfterARestartWithoutDuplicates) {
  fleet_->AddWorker(kManagerKey);
  std::string id;
  constexpr int kTrials = 10;
  {
    JobManager& m = StartManager(Options());
    absl::StatusOr<farm_api::JobStatus> job = m.Submit(Spec("matmul:16,16,16:float32", kTrials, 2));
    ASSERT_TRUE(job.ok()) << job.status();
    id = job->id;
    WaitFor(id, [](const farm_api::JobStatus& s) { return s.progress.trials_done >= 1; });
    manager_.reset();  // the tracker goes away mid-job
  }
  const JobRow row = TableRow(id);
  EXPECT_FALSE(farm_api::IsFinished(row.status.state)) << farm_api::JobStateName(row.status.state);
  const size_t before = History(id).size();
  EXPECT_GE(before, 1u);
  EXPECT_LT(before, static_cast<size_t>(kTrials));

  JobManager& m = StartManager(Options());
  absl::StatusOr<farm_api::JobStatus> resumed = m.Get(id);
  ASSERT_TRUE(resumed.ok()) << resumed.status();
  EXPECT_FALSE(farm_api::IsFinished(resumed->state));
  EXPECT_GE(resumed->progress.trials_done, static_cast<int>(before));
  farm_api::JobStatus done = WaitFinished(id);
  EXPECT_EQ(done.state, farm_api::JobState::kSucceeded) << done.message;
  EXPECT_EQ(done.progress.trials_done, kTrials);
  const std::vector<tuner::Record> records = History(id);
  EXPECT_EQ(records.size(), static_cast<size_t>(kTrials));
  EXPECT_EQ(Configs(records).size(), records.size());

  // A later start finds the job finished, with its counts from the records.
  manager_.reset();
  JobManager& later = StartManager(Options());
  absl::StatusOr<farm_api::JobStatus> finished = later.Get(id);
  ASSERT_TRUE(finished.ok()) << finished.status();
  EXPECT_EQ(finished->state, farm_api::JobState::kSucceeded);
  EXPECT_EQ(finished->progress.trials_done, kTrials);
  EXPECT_GT(finished->progress.best_seconds, 0);
  EXPECT_TRUE(later.List(/*include_finished=*/false, 0).empty());
  ASSERT_EQ(later.List(/*include_finished=*/true, 0).size(), 1u);
}

TEST_F(JobManagerTest, AJobThatCannotResumeFails) {
  {
    absl::StatusOr<std::unique_ptr<JobTable>> table = JobTable::Open(db_);
    ASSERT_TRUE(table.ok()) << table.status();
    JobRow corrupt;
    corrupt.status.id = "job-0000000c";
    corrupt.status.workload_key = "matmul:16,16,16:float32";
    corrupt.status.target = "llvm";
    corrupt.status.device_key = kManagerKey;
    corrupt.spec_json = "{not json";
    corrupt.status.state = farm_api::JobState::kRunning;
    corrupt.status.trials = 3;
    ASSERT_TRUE((*table)->Insert(corrupt).ok());
    JobRow gone = corrupt;  // its template no longer exists
    gone.status.id = "job-0000000d";
    gone.status.workload_key = "retired_op:1,2:float32";
    gone.spec_json = farm_api::JobSpecToJson(Spec("retired_op:1,2:float32", 3, 3));
    ASSERT_TRUE((*table)->Insert(gone).ok());
  }
  JobManager& m = StartManager(Options());
  absl::StatusOr<farm_api::JobStatus> corrupt = m.Get("job-0000000c");
  ASSERT_TRUE(corrupt.ok()) << corrupt.status();
  EXPECT_EQ(corrupt->state, farm_api::JobState::kFailed);
  EXPECT_THAT(corrupt->message, HasSubstr("cannot resume"));
  farm_api::JobStatus gone = WaitFinished("job-0000000d");
  EXPECT_EQ(gone.state, farm_api::JobState::kFailed);
  EXPECT_THAT(gone.message, HasSubstr("retired_op"));
  EXPECT_EQ(TableRow("job-0000000d").status.state, farm_api::JobState::kFailed);
}

// Nothing to publish is a failure, never a success: the commonest error kind and its message.
TEST_F(JobManagerTest, AJobWhoseEveryTrialFailedFailsAndSaysWhy) {
  fleet_->UseMeasureProgram("/bin/false");
  fleet_->AddWorker(kManagerKey);
  JobManager& m = StartManager(Options());
  absl::StatusOr<farm_api::JobStatus> job = m.Submit(Spec("matmul:16,16,16", 3, 3));
  ASSERT_TRUE(job.ok()) << job.status();
  farm_api::JobStatus done = WaitFinished(job->id);
  EXPECT_EQ(done.state, farm_api::JobState::kFailed) << done.message;
  EXPECT_THAT(done.message,
              ::testing::StartsWith("no trial succeeded: 3 of 3 ended runtime_error"));
  EXPECT_THAT(done.message, ::testing::HasSubstr("did not finish (exited with status 1)"));
  EXPECT_EQ(History(job->id).size(), 3u);
}

// Issue 44: a --target cuda job on CPU-only workers failed every trial; it is refused at submit,
// naming what the key's workers run, and nothing is stored.
TEST_F(JobManagerTest, AJobWhoseTargetNoWorkerOfTheKeyRunsIsRefused) {
  fleet_->AddWorker(kManagerKey);
  JobManager& m = StartManager(Options());
  farm_api::JobSpec cuda = Spec("matmul:16,16,16", 3, 3);
  cuda.target = "cuda";
  absl::StatusOr<farm_api::JobStatus> refused = m.Submit(cuda);
  ASSERT_FALSE(refused.ok());
  EXPECT_EQ(refused.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(refused.status().message(), HasSubstr("no worker of device key 'test-cpu'"));
  EXPECT_THAT(refused.status().message(), HasSubstr("cuda"));
  EXPECT_TRUE(m.List(/*include_finished=*/true, 10).empty());
  // A key with no worker yet takes the job: it waits for one to connect.
  cuda.device_key = "gpu-later";
  EXPECT_TRUE(m.Submit(cuda).ok());
}

TEST_F(JobManagerTest, AScriptJobCompletes) {
  fleet_->AddWorker(kManagerKey);
  JobManager& m = StartManager(Options());
  farm_api::JobSpec spec = Spec("", 4, 2);
  std::optional<std::string> source =
      fixtures::ReadFile(fixtures::SourcePath("examples/tune_matmul.te"));
  ASSERT_TRUE(source.has_value());
  spec.script_source = *source;
  spec.script_name = "tune_matmul.te";
  spec.bindings = {{"n", 16}};
  absl::StatusOr<farm_api::JobStatus> job = m.Submit(spec);
  ASSERT_TRUE(job.ok()) << job.status();
  EXPECT_THAT(job->workload_key, MatchesRegex("script/tune_matmul@[0-9a-f]{8}:16:float32"));
  farm_api::JobStatus done = WaitFinished(job->id);
  EXPECT_EQ(done.state, farm_api::JobState::kSucceeded) << done.message;
  const std::vector<tuner::Record> records = History(job->id);
  EXPECT_EQ(records.size(), 4u);
  for (const tuner::Record& r : records) {
    EXPECT_EQ(r.error_kind, tuner::ErrorKind::kOk) << r.error_message;
  }
}

// No cap on running jobs: five long jobs waiting for a key without workers do not hold back a
// job for a key whose worker is idle (the old engine ran 4 job threads, and queued the rest).
TEST_F(JobManagerTest, AJobForAnIdleKeyDoesNotWaitBehindJobsOfAnotherKey) {
  fleet_->AddWorker(kManagerKey);
  JobManager& m = StartManager(Options());
  std::vector<std::string> waiting;
  for (int i = 0; i < 5; ++i) {
    absl::StatusOr<farm_api::JobStatus> job =
        m.Submit(Spec("matmul:16,16,16:float32", 50, 3, "nobody"));
    ASSERT_TRUE(job.ok()) << job.status();
    EXPECT_EQ(job->state, farm_api::JobState::kRunning);
    waiting.push_back(job->id);
  }
  absl::StatusOr<farm_api::JobStatus> job = m.Submit(Spec("matmul:16,16,16:float32", 4, 2));
  ASSERT_TRUE(job.ok()) << job.status();
  EXPECT_EQ(job->state, farm_api::JobState::kRunning);
  farm_api::JobStatus done = WaitFinished(job->id);
  EXPECT_EQ(done.state, farm_api::JobState::kSucceeded) << done.message;
  EXPECT_EQ(History(job->id).size(), 4u);
  for (const std::string& id : waiting) {
    absl::StatusOr<farm_api::JobStatus> s = m.Get(id);
    ASSERT_TRUE(s.ok());
    EXPECT_EQ(s->state, farm_api::JobState::kRunning);
    EXPECT_THAT(s->message, HasSubstr("no worker with device key 'nobody'"));
  }
  // A waiting job cancels at once: its built candidates leave the queue, nothing is recorded.
  absl::StatusOr<farm_api::JobStatus> cancelled = m.Cancel(waiting[0]);
  ASSERT_TRUE(cancelled.ok());
  EXPECT_EQ(cancelled->state, farm_api::JobState::kCancelled);
  EXPECT_TRUE(History(waiting[0]).empty());
  EXPECT_EQ(TableRow(waiting[0]).status.state, farm_api::JobState::kCancelled);
  EXPECT_EQ(m.List(/*include_finished=*/false, 0).size(), 4u);
  EXPECT_EQ(dispatcher_.QueuedFor("nobody") > 0, true);  // the others' candidates still wait
}

TEST_F(JobManagerTest, AStateTheTableMissedIsWrittenOnceTheDatabaseIsFree) {
  JobManager& m = StartManager(Options());
  // Its key has no worker: it waits with its candidates queued, and writes nothing.
  absl::StatusOr<farm_api::JobStatus> second =
      m.Submit(Spec("matmul:16,16,16:float32", 3, 3, "nobody"));
  ASSERT_TRUE(second.ok());
  for (int i = 0; i < 100 && dispatcher_.QueuedFor("nobody") < 3; ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }

  // Another process holds the write lock past the table's busy timeout.
  sqlite3* other = nullptr;
  ASSERT_EQ(sqlite3_open(db_.c_str(), &other), SQLITE_OK);
  sqlite3_busy_timeout(other, 10000);  // the manager may be writing the first job's state
  ASSERT_EQ(sqlite3_exec(other, "BEGIN EXCLUSIVE", nullptr, nullptr, nullptr), SQLITE_OK);
  absl::StatusOr<farm_api::JobStatus> cancelled = m.Cancel(second->id);
  ASSERT_TRUE(cancelled.ok());
  EXPECT_EQ(cancelled->state, farm_api::JobState::kCancelled);
  EXPECT_EQ(sqlite3_exec(other, "COMMIT", nullptr, nullptr, nullptr), SQLITE_OK);
  sqlite3_close(other);

  // The table catches up by itself; before the fix it said queued for good.
  farm_api::JobState stored = TableRow(second->id).status.state;
  for (int i = 0; i < 100 && stored != farm_api::JobState::kCancelled; ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
    stored = TableRow(second->id).status.state;
  }
  EXPECT_EQ(stored, farm_api::JobState::kCancelled);
  EXPECT_EQ(m.Get(second->id)->state, farm_api::JobState::kCancelled);
}

TEST_F(JobManagerTest, ExtendRunsAnEndedJobForMoreTrialsWithoutRepeatingAConfig) {
  fleet_->AddWorker(kManagerKey);
  JobManager& m = StartManager(Options());
  absl::StatusOr<farm_api::JobStatus> job = m.Submit(Spec("matmul:16,16,16:float32", 4, 2));
  ASSERT_TRUE(job.ok()) << job.status();
  EXPECT_EQ(m.Extend(job->id, 8).status().code(), absl::StatusCode::kFailedPrecondition)
      << "still running";
  ASSERT_EQ(WaitFinished(job->id).state, farm_api::JobState::kSucceeded);
  EXPECT_EQ(m.Extend(job->id, 4).status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(m.Extend("job-nope", 8).status().code(), absl::StatusCode::kNotFound);

  absl::StatusOr<farm_api::JobStatus> extended = m.Extend(job->id, 9);
  ASSERT_TRUE(extended.ok()) << extended.status();
  EXPECT_EQ(extended->state, farm_api::JobState::kRunning);
  EXPECT_EQ(extended->trials, 9);
  farm_api::JobStatus done = WaitFinished(job->id);
  EXPECT_EQ(done.state, farm_api::JobState::kSucceeded) << done.message;
  EXPECT_EQ(done.progress.trials_done, 9);
  const std::vector<tuner::Record> records = History(job->id);
  EXPECT_EQ(records.size(), 9u);
  EXPECT_EQ(Configs(records).size(), 9u);
  absl::StatusOr<farm_api::JobSpec> stored = farm_api::JobSpecFromJson(TableRow(job->id).spec_json);
  ASSERT_TRUE(stored.ok());
  EXPECT_EQ(stored->trials, 9);

  // A job that ended before this manager started is extended from its row.
  manager_.reset();
  JobManager& again = StartManager(Options());
  ASSERT_TRUE(again.Extend(job->id, 11).ok());
  EXPECT_EQ(WaitFinished(job->id).progress.trials_done, 11);

  absl::StatusOr<farm_api::JobStatus> other = again.Submit(Spec("matmul:16,16,16:float32", 50, 2));
  ASSERT_TRUE(other.ok());
  ASSERT_TRUE(again.Cancel(other->id).ok());
  EXPECT_EQ(again.Extend(other->id, 60).status().code(), absl::StatusCode::kFailedPrecondition);
}

// A finished job from before this start is counted from its records once, not at every Get or
// List (the dashboard lists finished jobs every few seconds).
TEST_F(JobManagerTest, AJobThatEndedBeforeThisStartIsCountedFromItsRecordsOnce) {
  fleet_->AddWorker(kManagerKey);
  absl::StatusOr<farm_api::JobStatus> job =
      StartManager(Options()).Submit(Spec("matmul:16,16,16:float32", 4, 2));
  ASSERT_TRUE(job.ok()) << job.status();
  ASSERT_EQ(WaitFinished(job->id).state, farm_api::JobState::kSucceeded);
  manager_.reset();

  JobManager& again = StartManager(Options());
  absl::StatusOr<farm_api::JobStatus> counted = again.Get(job->id);
  ASSERT_TRUE(counted.ok()) << counted.status();
  EXPECT_EQ(counted->progress.trials_done, 4);
  // Its records go behind the manager's back: what it counted stands.
  sqlite3* other = nullptr;
  ASSERT_EQ(sqlite3_open(db_.c_str(), &other), SQLITE_OK);
  const std::string remove = "DELETE FROM records WHERE job_id = '" + job->id + "'";
  ASSERT_EQ(sqlite3_exec(other, remove.c_str(), nullptr, nullptr, nullptr), SQLITE_OK);
  sqlite3_close(other);
  EXPECT_EQ(again.Get(job->id)->progress.trials_done, 4);
  std::vector<farm_api::JobStatus> listed = again.List(/*include_finished=*/true, 10);
  ASSERT_EQ(listed.size(), 1u);
  EXPECT_EQ(listed[0].progress.trials_done, 4);
  EXPECT_EQ(listed[0].progress.best_seconds, counted->progress.best_seconds);

  // The next start counts again.
  manager_.reset();
  EXPECT_EQ(StartManager(Options()).Get(job->id)->progress.trials_done, 0);
}

}  // namespace
}  // namespace tunefarm::tracker
