// Faults in a real farm on 127.0.0.1: a worker or the tracker killed with SIGKILL mid-job,
// candidates that crash or hang, and a worker whose cached libraries are gone. Jobs complete,
// and no record is lost or stored twice.
#include <csignal>
#include <filesystem>
#include <functional>
#include <gmock/gmock.h>
#include <map>
#include <set>

#include "tests/integration/farm_fixture.h"
#include "tests/unit/tuner/measure/probe_template.h"
#include "tuner/templates/template_registry.h"

namespace tunefarm::integration {
namespace {

// Candidates that take about half a second each, so a kill lands mid-measurement.
farm_api::JobSpec SlowJob(const std::string& key, int trials) {
  farm_api::JobSpec spec = SmallJob(key, trials);
  spec.measure.repeat = 2;
  spec.measure.min_repeat_ms = 250;
  // These tests are about leases lost and requeued, not timeouts: a sanitizer build timing
  // beside a neighbour test once took over 10 s for one candidate.
  spec.measure.run_timeout_s = 60;
  return spec;
}

// Polls `done` every `every_ms` until it holds or `seconds` pass; returns its last answer.
bool PollUntil(const std::function<bool()>& done, double seconds, int every_ms) {
  const auto deadline = Farm::Deadline(seconds);
  while (std::chrono::steady_clock::now() < deadline && !done()) {
    std::this_thread::sleep_for(std::chrono::milliseconds(every_ms));
  }
  return done();
}

bool IsBusy(client::FarmClient& client, const std::string& key, const std::string& worker_id) {
  auto workers = client.ListWorkers(key);
  if (!workers.ok()) return false;
  for (const farm_api::WorkerSnapshot& w : *workers) {
    if (w.description.worker_id == worker_id) return w.state == farm_api::WorkerState::kBusy;
  }
  return false;
}

// Submits `spec`, kills `victim` (-9) once it holds a lease, and waits for the job to succeed
// with all its trials, each recorded once; `records` gets them.
void KillWhenBusyAndFinish(Farm& farm, client::FarmClient& client, const farm_api::JobSpec& spec,
                           ChildProcess& victim, const std::string& victim_id,
                           std::vector<tuner::Record>& records) {
  absl::StatusOr<farm_api::JobStatus> job = client.SubmitJob(spec);
  ASSERT_TRUE(job.ok()) << job.status();
  ASSERT_TRUE(PollUntil([&] { return IsBusy(client, spec.device_key, victim_id); }, 30, 2))
      << victim_id << " should hold a lease";
  victim.Signal(SIGKILL);
  EXPECT_EQ(victim.Wait(10), 128 + SIGKILL);
  farm_api::JobStatus done = farm.WaitForJob(job->id);
  ASSERT_EQ(done.state, farm_api::JobState::kSucceeded) << done.message;
  records = farm.JobRecords(job->id);
  EXPECT_EQ(records.size(), static_cast<size_t>(spec.trials));
  EXPECT_TRUE(NoDuplicateConfigs(records));
}

bool AllBusy(client::FarmClient& client, const std::string& key, size_t n) {
  auto workers = client.ListWorkers(key);
  if (!workers.ok() || workers->size() < n) return false;
  for (const farm_api::WorkerSnapshot& w : *workers) {
    if (w.state != farm_api::WorkerState::kBusy) return false;
  }
  return true;
}

TEST(FarmFaultsTest, WorkerKilledMidMeasurementIsRequeuedAndNothingIsLostOrDuplicated) {
  Farm farm("kill_worker");
  farm.StartTracker();
  ChildProcess victim = farm.StartWorker("cpu-kill");
  ChildProcess survivor = farm.StartWorker("cpu-kill");
  ASSERT_TRUE(farm.WaitForWorkers("cpu-kill", 2));
  auto client = farm.Client();
  farm_api::JobSpec spec = SlowJob("cpu-kill", 8);
  absl::StatusOr<farm_api::JobStatus> job = client->SubmitJob(spec);
  ASSERT_TRUE(job.ok()) << job.status();

  ASSERT_TRUE(PollUntil([&] { return AllBusy(*client, "cpu-kill", 2); }, 60, 10))
      << "both workers should hold a lease";
  victim.Signal(SIGKILL);
  EXPECT_EQ(victim.Wait(10), 128 + SIGKILL);

  farm_api::JobStatus done = farm.WaitForJob(job->id);
  ASSERT_EQ(done.state, farm_api::JobState::kSucceeded) << done.message;
  std::vector<tuner::Record> records = farm.JobRecords(job->id);
  EXPECT_EQ(records.size(), 8u);
  EXPECT_TRUE(NoDuplicateConfigs(records));
  for (const tuner::Record& r : records) {
    EXPECT_EQ(r.error_kind, tuner::ErrorKind::kOk)
        << "the lost lease was measured again: " << r.error_message;
  }
  EXPECT_TRUE(survivor.Running());
}

// A worker of 'cpu-broken' whose measure child cannot run anything, as a broken board's (every
// lease fails), and a 60-trial job for it, waited on until it pauses (or ends).
struct JobOnABrokenDevice {
  ChildProcess broken;
  farm_api::JobStatus status;
};
JobOnABrokenDevice SubmitToABrokenDevice(Farm& farm) {
  JobOnABrokenDevice out;
  out.broken =
      farm.StartWorkerWithEnvironment("cpu-broken", {"TUNEFARM_MEASURE_PROGRAM=/bin/false"});
  EXPECT_TRUE(farm.WaitForWorkers("cpu-broken", 1));
  absl::StatusOr<farm_api::JobStatus> job = farm.Client()->SubmitJob(SmallJob("cpu-broken", 60));
  EXPECT_TRUE(job.ok()) << job.status();
  if (job.ok()) out.status = farm.WaitForJob(job->id, 120, /*until_paused=*/true);
  return out;
}

// The job pauses with the reason, keeping what it tried and the rest of its budget; a worker of
// the key that works (a board replaced or fixed) registers, and the job resumes and finishes.
TEST(FarmFaultsTest, ADeviceThatFailsEveryTrialPausesItsJobUntilAWorkingOneJoins) {
  Farm farm("broken_device");
  farm.StartTracker();
  JobOnABrokenDevice job = SubmitToABrokenDevice(farm);
  const farm_api::JobStatus& paused = job.status;
  ASSERT_EQ(paused.state, farm_api::JobState::kPaused) << paused.message;
  // 16 or a few more: the results of one batch arrive together.
  EXPECT_THAT(paused.message,
              ::testing::MatchesRegex("paused: the last (1[6-9]|2[0-9]) trials failed on the "
                                      "devices of 'cpu-broken' \\(runtime_error: .*exited with "
                                      "status 1.*\\); check the devices \\(tunefarm workers\\); "
                                      "it resumes when a worker of 'cpu-broken' registers, or "
                                      "cancel it"));
  // What it tried is kept; the rest of the budget is not spent while it is paused.
  std::vector<tuner::Record> tried = farm.JobRecords(paused.id);
  EXPECT_GE(tried.size(), 16u);
  EXPECT_LE(tried.size(), 40u);
  std::this_thread::sleep_for(std::chrono::milliseconds(500));
  EXPECT_EQ(farm.JobRecords(paused.id).size(), tried.size());
  EXPECT_TRUE(job.broken.Running());

  job.broken.Signal(SIGTERM);
  job.broken.Wait(30);
  ChildProcess working = farm.StartWorker("cpu-broken");
  farm_api::JobStatus done = farm.WaitForJob(paused.id);
  EXPECT_EQ(done.state, farm_api::JobState::kSucceeded) << done.message;
  std::vector<tuner::Record> records = farm.JobRecords(paused.id);
  EXPECT_EQ(records.size(), 60u);  // every trial once: the paused ones and the rest
  int ok = 0;
  for (const tuner::Record& r : records) ok += r.error_kind == tuner::ErrorKind::kOk;
  EXPECT_EQ(ok, static_cast<int>(60 - tried.size()));
}

// A paused job is cancelled at once (nothing of it runs).
TEST(FarmFaultsTest, APausedJobCanBeCancelled) {
  Farm farm("cancel_paused");
  farm.StartTracker();
  JobOnABrokenDevice job = SubmitToABrokenDevice(farm);
  ASSERT_EQ(job.status.state, farm_api::JobState::kPaused) << job.status.message;
  absl::StatusOr<farm_api::JobStatus> cancelled = farm.Client()->CancelJob(job.status.id);
  ASSERT_TRUE(cancelled.ok()) << cancelled.status();
  EXPECT_EQ(cancelled->state, farm_api::JobState::kCancelled);
}

TEST(FarmFaultsTest, WorkerKilledWhileBuildingItsCandidateLeavesItToAnotherWorker) {
  Farm farm("kill_builder");
  tracker::TrackerServerOptions options = Farm::FastOptions();
  options.jobs.build_placement = tracker::BuildPlacement::kWorkers;
  farm.StartTracker(options);
  auto client = farm.Client();
  // The victim registers first, so it is the longest idle worker and gets the first lease.
  ChildProcess victim = farm.StartWorker("cpu-build");
  ASSERT_TRUE(farm.WaitForWorkers("cpu-build", 1));
  const std::string victim_id = client->ListWorkers("cpu-build")->at(0).description.worker_id;
  ChildProcess survivor = farm.StartWorker("cpu-build");
  ASSERT_TRUE(farm.WaitForWorkers("cpu-build", 2));

  // Its first lease is a build spec: killed as soon as it holds one, it is still compiling
  // (a build takes over 50 ms; this polls every 2 ms) and has reported nothing.
  std::vector<tuner::Record> records;
  KillWhenBusyAndFinish(farm, *client, SmallJob("cpu-build", 6), victim, victim_id, records);
  for (const tuner::Record& r : records) {
    EXPECT_EQ(r.error_kind, tuner::ErrorKind::kOk) << r.error_message;
    EXPECT_NE(r.measured_by, victim_id);
    EXPECT_EQ(r.built_by, r.measured_by) << "rebuilt by the worker that measured it";
  }
  EXPECT_TRUE(survivor.Running());
}

TEST(FarmFaultsTest, BuilderKilledMidBuildLeavesItToAnotherBuilder) {
  Farm farm("kill_build_only");
  tracker::TrackerServerOptions options = Farm::FastOptions();
  options.jobs.build_placement = tracker::BuildPlacement::kWorkers;  // all to the builders
  farm.StartTracker(options);
  auto client = farm.Client();
  // A device that cannot build (as the slim server on a board), and two builders for its key;
  // the victim registers first, so it is the longest idle builder and gets the first build.
  ChildProcess device = farm.StartWorker("board", /*builds=*/false);
  ASSERT_TRUE(farm.WaitForWorkers("board", 1));
  const std::string device_id = client->ListWorkers("board")->at(0).description.worker_id;
  auto builder_ids = [&] {
    std::vector<std::string> ids;
    absl::StatusOr<std::vector<farm_api::WorkerSnapshot>> workers = client->ListWorkers("board");
    if (!workers.ok()) return ids;
    for (const farm_api::WorkerSnapshot& w : *workers) {
      if (w.description.build_only) ids.push_back(w.description.worker_id);
    }
    return ids;
  };
  ChildProcess victim = farm.StartBuilder("board");
  ASSERT_TRUE(farm.WaitForWorkers("board", 2));
  ASSERT_EQ(builder_ids().size(), 1u);
  const std::string victim_id = builder_ids()[0];
  ChildProcess survivor = farm.StartBuilder("board");
  ASSERT_TRUE(farm.WaitForWorkers("board", 3));
  std::vector<std::string> builders = builder_ids();
  ASSERT_EQ(builders.size(), 2u);
  const std::string survivor_id = builders[0] == victim_id ? builders[1] : builders[0];

  farm_api::JobSpec spec = SmallJob("board", 6);
  spec.measure.check_correctness = true;  // the builders send the reference too
  std::vector<tuner::Record> records;
  KillWhenBusyAndFinish(farm, *client, spec, victim, victim_id, records);
  for (const tuner::Record& r : records) {
    EXPECT_EQ(r.error_kind, tuner::ErrorKind::kOk) << r.error_message;
    EXPECT_EQ(r.built_by, survivor_id) << "rebuilt by the other builder, not the tracker";
    EXPECT_EQ(r.measured_by, device_id);
  }
  EXPECT_TRUE(survivor.Running());
  EXPECT_TRUE(device.Running());
}

TEST(FarmFaultsTest, TrackerKilledMidJobResumesOnTheSameDatabase) {
  Farm farm("kill_tracker");
  ChildProcess tracker_process = farm.StartTrackerProcess();
  ASSERT_GT(farm.port(), 0) << tracker_process.Log();
  const int port = farm.port();
  ChildProcess w1 = farm.StartWorker("cpu-crash");
  ChildProcess w2 = farm.StartWorker("cpu-crash");
  ASSERT_TRUE(farm.WaitForWorkers("cpu-crash", 2)) << tracker_process.Log();
  absl::StatusOr<farm_api::JobStatus> job = farm.Client()->SubmitJob(SlowJob("cpu-crash", 12));
  ASSERT_TRUE(job.ok()) << job.status();

  auto deadline = Farm::Deadline(60);
  while (std::chrono::steady_clock::now() < deadline && farm.JobRecords(job->id).size() < 3) {
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  tracker_process.Signal(SIGKILL);
  ASSERT_EQ(tracker_process.Wait(10), 128 + SIGKILL);
  std::vector<tuner::Record> before = farm.JobRecords(job->id);
  ASSERT_GE(before.size(), 3u);
  ASSERT_LT(before.size(), 12u) << "the job finished before the kill; nothing to resume";

  // Same port: the workers reconnect by themselves.
  ChildProcess restarted = farm.StartTrackerProcess(port);
  ASSERT_EQ(farm.port(), port) << restarted.Log();
  farm_api::JobStatus done = farm.WaitForJob(job->id);
  ASSERT_EQ(done.state, farm_api::JobState::kSucceeded) << done.message << restarted.Log();
  std::vector<tuner::Record> after = farm.JobRecords(job->id);
  EXPECT_EQ(after.size(), 12u);
  EXPECT_TRUE(NoDuplicateConfigs(after));
  std::set<std::string> configs_after;
  for (const tuner::Record& r : after) configs_after.insert(r.config_json);
  for (const tuner::Record& r : before) {
    EXPECT_TRUE(configs_after.contains(r.config_json)) << "lost: " << r.config_json;
  }
}

TEST(FarmFaultsTest, AWorkerThatLostItsCachedLibrariesGetsTheirBytesAgain) {
  Farm farm("lost_artifacts");
  farm.StartTracker();
  ChildProcess worker = farm.StartWorker("cpu-lost", /*builds=*/false);  // libraries travel
  ASSERT_TRUE(farm.WaitForWorkers("cpu-lost", 1));
  auto client = farm.Client();
  absl::StatusOr<farm_api::JobStatus> first = client->SubmitJob(SmallJob("cpu-lost", 4));
  ASSERT_TRUE(first.ok()) << first.status();
  ASSERT_EQ(farm.WaitForJob(first->id).state, farm_api::JobState::kSucceeded);

  // The worker's cache loses everything (evicted, or removed by hand); the tracker, which sends
  // bytes once per connection, names the shared reference library by hash only from now on.
  const std::string cache = farm.dir() + "/worker1/artifacts";
  ASSERT_TRUE(std::filesystem::is_directory(cache));
  for (const auto& entry : std::filesystem::directory_iterator(cache)) {
    std::filesystem::remove_all(entry.path());
  }
  absl::StatusOr<farm_api::JobStatus> second = client->SubmitJob(SmallJob("cpu-lost", 4));
  ASSERT_TRUE(second.ok()) << second.status();
  farm_api::JobStatus done = farm.WaitForJob(second->id);
  ASSERT_EQ(done.state, farm_api::JobState::kSucceeded) << done.message;
  std::vector<tuner::Record> records = farm.JobRecords(second->id);
  EXPECT_EQ(records.size(), 4u);
  EXPECT_TRUE(NoDuplicateConfigs(records));
  for (const tuner::Record& r : records) {
    EXPECT_EQ(r.error_kind, tuner::ErrorKind::kOk) << r.error_message;
  }
  EXPECT_THAT(worker.Log(), ::testing::HasSubstr("missing on worker; asking for the bytes"))
      << "the lease named no library this worker had lost: nothing was tested";
  EXPECT_TRUE(worker.Running());
}

TEST(FarmFaultsTest, CrashingAndHangingCandidatesAreRecordedAndTheWorkerLivesOn) {
  static const bool registered = [] {
    return tuner::RegisterTemplate(
               tuner::TemplateInfo{"farm_probe", "N", "candidates that crash, hang or lie"},
               [](const tuner::Workload&, const topi::CpuInfo&,
                  absl::Status&) -> std::unique_ptr<tuner::TaskTemplate> {
                 return std::make_unique<tuner::testing::ProbeTemplate>();
               })
        .ok();
  }();
  ASSERT_TRUE(registered);
  Farm farm("crash_hang");
  farm.StartTracker();
  ChildProcess w = farm.StartWorker("cpu-probe");
  ASSERT_TRUE(farm.WaitForWorkers("cpu-probe", 1));
  farm_api::JobSpec spec = SmallJob("cpu-probe", 12);
  spec.workload = "farm_probe:32:float32";
  spec.tuner = "grid";
  spec.batch_size = 6;
  spec.measure.run_timeout_s = 2;
  absl::StatusOr<farm_api::JobStatus> job = farm.Client()->SubmitJob(spec);
  ASSERT_TRUE(job.ok()) << job.status();
  farm_api::JobStatus done = farm.WaitForJob(job->id);
  ASSERT_EQ(done.state, farm_api::JobState::kSucceeded) << done.message;

  std::map<tuner::ErrorKind, int> kinds;
  for (const tuner::Record& r : farm.JobRecords(job->id)) {
    ++kinds[r.error_kind];
    // The probe template exists only in this test's process, so the worker answered that it
    // cannot make the task and the tracker built every candidate (nothing recorded the refusal).
    EXPECT_EQ(r.built_by, "tracker");
  }
  EXPECT_EQ(kinds[tuner::ErrorKind::kOk], 2);
  EXPECT_EQ(kinds[tuner::ErrorKind::kWrongAnswer], 2);
  EXPECT_EQ(kinds[tuner::ErrorKind::kRuntimeError], 2);  // the crashes
  EXPECT_EQ(kinds[tuner::ErrorKind::kRunTimeout], 2);    // the hangs
  EXPECT_EQ(kinds[tuner::ErrorKind::kInvalidConfig], 2);
  EXPECT_EQ(kinds[tuner::ErrorKind::kBuildError], 2);
  EXPECT_TRUE(w.Running()) << w.Log();
  auto workers = farm.Client()->ListWorkers("cpu-probe");
  ASSERT_TRUE(workers.ok());
  ASSERT_EQ(workers->size(), 1u);
  EXPECT_EQ((*workers)[0].measured, 8) << "every built candidate went to the one worker";
}

}  // namespace
}  // namespace tunefarm::integration
