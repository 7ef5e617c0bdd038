// Model jobs on a real farm (tracker, `tunefarm worker` processes, 127.0.0.1): one budget spread
// over a small CNN's tasks, each trial recorded once, through a worker kill -9, a tracker kill -9
// and a cancel; the module built with the farm's records computes what the untuned one does.
#include <algorithm>
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <sstream>

#include "client/session_race_timer.h"
#include "driver/model_executor.h"
#include "tests/integration/farm_fixture.h"
#include "tests/testing/files.h"
#include "tests/unit/compiler/frontend/onnx/onnx_model_builder.h"
#include "tools/commands/model_build_command.h"
#include "tools/commands/model_tune_command.h"

namespace tunefarm::integration {
namespace {

using ::testing::HasSubstr;
using B = frontend::onnx::testing::OnnxModelBuilder;

// A 3x3 conv used twice and a 1x1 conv: three tasks, the 3x3 layer's direct and Winograd forms
// (weight 2 each, alternatives of one layer) and the 1x1 conv (weight 1). 16 channels, so that
// the second 3x3 conv reads its input in the block the first reads x in: one layout, one layer.
std::string TwoTaskCnn() {
  B b(13);
  b.Input("x", {1, 16, 6, 6});
  b.FloatInit("k1", {16, 16, 3, 3});
  b.FloatInit("k2", {16, 16, 3, 3});
  b.FloatInit("k3", {16, 16, 1, 1});
  B::Ints(b.Node("Conv", {"x", "k1"}, {"a"}), "pads", {1, 1, 1, 1});
  b.Node("Relu", {"a"}, {"ra"});
  B::Ints(b.Node("Conv", {"ra", "k2"}, {"b"}), "pads", {1, 1, 1, 1});
  b.Node("Relu", {"b"}, {"rb"});
  b.Node("Conv", {"rb", "k3"}, {"y"});
  b.Output("y");
  return fixtures::WriteTempFile("two_task_cnn.onnx", b.Bytes());
}

tools::ModelTuneOptions FarmTune(const std::string& model, const Farm& farm, const std::string& key,
                                 int trials) {
  tools::ModelTuneOptions o;
  o.file = model;
  o.tune.tracker = farm.address();
  o.tune.key = key;
  o.tune.trials = trials;
  o.tune.batch_size = 4;
  o.tune.tuner = "random";
  o.tune.measure.repeat = 1;
  o.tune.measure.min_repeat_ms = 1;
  o.tune.progress = false;
  return o;
}

farm_api::ModelJobSpec ModelSpec(const std::string& model, const std::string& key, int trials) {
  driver::ModelTuningRequest request;
  request.file = model;
  request.layouts = driver::LayoutTuning::kOff;
  absl::StatusOr<driver::ModelTuning> tasks =
      driver::ModelTuningTasks(request, tuner::TuningRequest(), target::Target::Host());
  EXPECT_TRUE(tasks.ok()) << tasks.status();
  farm_api::ModelJobSpec spec;
  spec.model_name = "two_task_cnn.onnx";
  if (tasks.ok()) spec.tasks = farm_api::ModelTaskSpecsOf(tasks->tasks);
  spec.device_key = key;
  spec.trials = trials;
  spec.batch_size = 4;
  spec.tuner = "random";
  spec.measure.repeat = 2;
  spec.measure.min_repeat_ms = 100;  // slow enough to kill things mid-job
  return spec;
}

farm_api::ModelJobStatus WaitForModelJob(Farm& farm, const std::string& id, double seconds = 180) {
  auto client = farm.Client();
  farm_api::ModelJobStatus last;
  const auto deadline = Farm::Deadline(seconds);
  while (std::chrono::steady_clock::now() < deadline) {
    absl::StatusOr<farm_api::ModelJobStatus> job = client->GetModelJob(id);
    if (job.ok()) {
      last = *job;
      if (farm_api::IsFinished(job->state)) break;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  return last;
}

int RecordsOfModelJob(Farm& farm, const farm_api::ModelJobStatus& job) {
  int n = 0;
  for (const farm_api::ModelTaskStatus& t : job.tasks) {
    if (!t.job_id.empty()) n += static_cast<int>(farm.JobRecords(t.job_id).size());
  }
  return n;
}

// Every record of the farm's database (a test's farm runs one model job).
int RecordsInDatabase(const Farm& farm) {
  auto store = tuner::RecordStore::Open(farm.db());
  EXPECT_TRUE(store.ok()) << store.status();
  if (!store.ok()) return 0;
  auto counts = (*store)->CountByErrorKind();
  EXPECT_TRUE(counts.ok());
  if (!counts.ok()) return 0;
  int64_t total = 0;
  for (const auto& [kind, n] : *counts) total += n;
  return static_cast<int>(total);
}

// Each task's job recorded each of its trials once (and every task had one, unless
// `some_never_ran`: a model job cancelled early).
void ExpectEachTrialRecordedOnce(Farm& farm, const farm_api::ModelJobStatus& job,
                                 bool some_never_ran = false) {
  for (const farm_api::ModelTaskStatus& t : job.tasks) {
    if (some_never_ran && t.job_id.empty()) continue;
    ASSERT_FALSE(t.job_id.empty()) << t.workload_key << " never got trials";
    std::vector<tuner::Record> records = farm.JobRecords(t.job_id);
    EXPECT_EQ(static_cast<int>(records.size()), t.trials_done) << t.workload_key;
    EXPECT_TRUE(NoDuplicateConfigs(records)) << t.workload_key;
    for (const tuner::Record& r : records) EXPECT_EQ(r.workload_key, t.workload_key);
  }
}

// The first output of the module at `path` for a fixed input.
std::vector<float> RunModule(const std::string& path) {
  absl::StatusOr<std::unique_ptr<driver::ModelExecutor>> exec = driver::OpenModelModule(path);
  EXPECT_TRUE(exec.ok()) << exec.status();
  if (!exec.ok()) return {};
  std::vector<float> input(16 * 6 * 6);
  for (size_t i = 0; i < input.size(); ++i) input[i] = static_cast<float>((i * 37) % 17) / 8 - 1;
  EXPECT_TRUE((*exec)->SetInput(0, input.data(), input.size() * sizeof(float)).ok());
  EXPECT_TRUE((*exec)->Run().ok());
  absl::StatusOr<const DLTensor*> out = (*exec)->Output(0);
  EXPECT_TRUE(out.ok()) << out.status();
  if (!out.ok()) return {};
  int64_t n = 1;
  for (int d = 0; d < (*out)->ndim; ++d) n *= (*out)->shape[d];
  const float* data = static_cast<const float*>((*out)->data);
  return std::vector<float>(data, data + n);
}

TEST(FarmModelJobTest, TheCommandSpreadsOneBudgetOverTheTasksAndTheBuiltModuleMatchesUntuned) {
  Farm farm("model_job");
  farm.StartTracker();
  ChildProcess w1 = farm.StartWorker("mj-cpu");
  ChildProcess w2 = farm.StartWorker("mj-cpu");
  ASSERT_TRUE(farm.WaitForWorkers("mj-cpu", 2));
  const std::string model = TwoTaskCnn();

  std::ostringstream out, err;
  tools::ModelTuneOptions tune = FarmTune(model, farm, "mj-cpu", 16);
  tune.output = farm.dir() + "/tuned.so";
  // --timing weights: the workers time it so and the records say so.
  tune.tune.measure.cache_flush = tuner::CacheFlush::kWeights;
  ASSERT_EQ(tools::RunModelTuneCommand(tune, nullptr, out, err), 0)
      << out.str() << err.str() << w1.Log();
  EXPECT_THAT(out.str(), HasSubstr("3 tasks, 16 trials"));
  EXPECT_THAT(out.str(), HasSubstr("succeeded"));
  EXPECT_THAT(out.str(), HasSubstr("trials=16 tuned_kernels_ms="));
  // The last step: each conv's close rivals raced on a worker, the tuned module written and
  // timed end to end on a worker of the key.
  EXPECT_THAT(out.str(), ::testing::ContainsRegex("race on a worker of 'mj-cpu': [0-9]+ rivals "
                                                  "timed in the model, [0-9]+ conv workloads"));
  EXPECT_THAT(out.str(), HasSubstr("wrote " + tune.output));
  // Both timed in alternating rounds: a speedup with its interval, or "no measurable gain".
  EXPECT_THAT(out.str(), ::testing::ContainsRegex(
                             "end to end on [^,]+, 10 alternating rounds: tuned [0-9.]+ ms, "
                             "untuned [0-9.]+ ms: .*\\(95 % CI, 10 rounds\\) model_ms=[0-9.]+"));

  absl::StatusOr<std::vector<farm_api::ModelJobStatus>> listed =
      farm.Client()->ListModelJobs(/*include_finished=*/true, 10);
  ASSERT_TRUE(listed.ok()) << listed.status();
  ASSERT_EQ(listed->size(), 1u);
  const farm_api::ModelJobStatus& job = listed->front();
  EXPECT_EQ(job.state, farm_api::JobState::kSucceeded);
  EXPECT_EQ(job.trials_done, 16);
  EXPECT_EQ(job.cache_flush, tuner::CacheFlush::kWeights);
  ASSERT_EQ(job.tasks.size(), 3u);
  for (const farm_api::ModelTaskStatus& t : job.tasks) {
    EXPECT_GE(t.trials_done, 4) << "every task gets a first batch";
    EXPECT_GT(t.best_seconds, 0);
  }
  EXPECT_THAT(job.tasks[0].workload_key, ::testing::StartsWith("conv2d_nchwc:1,16,6,6,16,3,3,"));
  EXPECT_THAT(job.tasks[1].workload_key, ::testing::StartsWith("conv2d_winograd_nchwc:"));
  EXPECT_EQ(job.tasks[0].layer, job.tasks[1].layer);
  EXPECT_NE(job.tasks[2].layer, job.tasks[0].layer);
  // The 3x3 layer counts once, as its faster algorithm.
  const double estimate = 2 * std::min(job.tasks[0].best_seconds, job.tasks[1].best_seconds) +
                          job.tasks[2].best_seconds;
  EXPECT_NEAR(job.estimated_seconds, estimate, 1e-12);
  EXPECT_GT(job.latency.measured_seconds, 0);
  EXPECT_GT(job.latency.untuned_seconds, 0);
  EXPECT_FALSE(job.latency.measured_by.empty());
  ExpectEachTrialRecordedOnce(farm, job);
  // The workers timed every trial with the weights evicted, as the command asked.
  for (const farm_api::ModelTaskStatus& t : job.tasks) {
    for (const tuner::Record& r : farm.JobRecords(t.job_id)) {
      EXPECT_EQ(r.cache_flush, tuner::CacheFlush::kWeights) << t.workload_key;
    }
  }
  // The tasks' jobs are listed as jobs of the model job.
  absl::StatusOr<std::vector<farm_api::JobStatus>> jobs = farm.Client()->ListJobs(true, 10);
  ASSERT_TRUE(jobs.ok());
  ASSERT_EQ(jobs->size(), 3u);
  for (const farm_api::JobStatus& j : *jobs) {
    EXPECT_EQ(j.model_job_id, job.id);
    ASSERT_GE(j.model_task, 0);
    EXPECT_EQ(job.tasks[j.model_task].job_id, j.id);
  }

  // Built with the farm's records, the module computes what the untuned one does: within
  // Winograd's rounding where the records chose it for the 3x3 layer (F(6x6, 3x3)'s transforms
  // have coefficients up to 10; the kernel tests allow it 1e-3).
  tools::ModelBuildOptions untuned;
  untuned.file = model;
  untuned.output = farm.dir() + "/untuned.so";
  std::ostringstream build_out, build_err;
  ASSERT_EQ(tools::RunModelBuildCommand(untuned, build_out, build_err), 0) << build_err.str();
  const std::vector<float> want = RunModule(untuned.output);
  const std::vector<float> got = RunModule(tune.output);
  ASSERT_EQ(got.size(), want.size());
  ASSERT_FALSE(want.empty());
  float scale = 0;
  for (float v : want) scale = std::max(scale, std::abs(v));
  for (size_t i = 0; i < want.size(); ++i) {
    ASSERT_NEAR(got[i], want[i], 1e-3f * std::max(scale, 1.0f)) << "output " << i;
  }
}

TEST(FarmModelJobTest, TheRaceTimesBothModulesInTurnsOnAWorkerOfTheKey) {
  Farm farm("model_race");
  farm.StartTracker();
  ChildProcess w = farm.StartWorker("race-cpu");
  ASSERT_TRUE(farm.WaitForWorkers("race-cpu", 1));
  const std::string model = TwoTaskCnn();
  tools::ModelBuildOptions build;
  build.file = model;
  build.output = farm.dir() + "/winograd.so";
  std::ostringstream out, err;
  ASSERT_EQ(tools::RunModelBuildCommand(build, out, err), 0) << err.str();
  build.output = farm.dir() + "/direct.so";
  build.compile.disabled_passes = {"winograd"};
  ASSERT_EQ(tools::RunModelBuildCommand(build, out, err), 0) << err.str();

  client::FarmClientOptions client;
  client.address = farm.address();
  const driver::ModuleRaceTimer timer = client::SessionRaceTimer(client, "race-cpu", 1, 4, 5);
  absl::StatusOr<driver::RaceTimes> times =
      timer(farm.dir() + "/winograd.so", farm.dir() + "/direct.so");
  ASSERT_TRUE(times.ok()) << times.status() << w.Log();
  ASSERT_EQ(times->incumbent.size(), 4u);
  ASSERT_EQ(times->challenger.size(), 4u);
  for (int r = 0; r < 4; ++r) {
    EXPECT_GT(times->incumbent[r], 0);
    EXPECT_GT(times->challenger[r], 0);
  }
  // A module that is not there is refused before a worker is asked to load it.
  times = timer(farm.dir() + "/winograd.so", farm.dir() + "/none.so");
  EXPECT_EQ(times.status().code(), absl::StatusCode::kNotFound) << times.status();
}

TEST(FarmModelJobTest, SurvivesAWorkerKillAndATrackerKillAndRecordsEachTrialOnce) {
  Farm farm("model_job_kill");
  ChildProcess tracker_process = farm.StartTrackerProcess();
  ASSERT_GT(farm.port(), 0) << tracker_process.Log();
  const int port = farm.port();
  ChildProcess w1 = farm.StartWorker("mj-kill");
  ChildProcess w2 = farm.StartWorker("mj-kill");
  ASSERT_TRUE(farm.WaitForWorkers("mj-kill", 2)) << tracker_process.Log();
  absl::StatusOr<farm_api::ModelJobStatus> job =
      farm.Client()->SubmitModelJob(ModelSpec(TwoTaskCnn(), "mj-kill", 20));
  ASSERT_TRUE(job.ok()) << job.status();
  ASSERT_EQ(job->tasks.size(), 3u);

  auto recorded = [&] {
    absl::StatusOr<farm_api::ModelJobStatus> now = farm.Client()->GetModelJob(job->id);
    return now.ok() ? RecordsOfModelJob(farm, *now) : 0;
  };
  auto deadline = Farm::Deadline(60);
  while (std::chrono::steady_clock::now() < deadline && recorded() < 3) {
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  w1.Signal(SIGKILL);
  ASSERT_EQ(w1.Wait(10), 128 + SIGKILL);
  deadline = Farm::Deadline(60);
  while (std::chrono::steady_clock::now() < deadline && recorded() < 8) {
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  tracker_process.Signal(SIGKILL);
  ASSERT_EQ(tracker_process.Wait(10), 128 + SIGKILL);
  ASSERT_LT(RecordsInDatabase(farm), 20) << "it finished before the kill; nothing to resume";
  ChildProcess w3 = farm.StartWorker("mj-kill");

  // Same port: the surviving worker reconnects by itself.
  ChildProcess restarted = farm.StartTrackerProcess(port);
  ASSERT_EQ(farm.port(), port) << restarted.Log();
  farm_api::ModelJobStatus done = WaitForModelJob(farm, job->id);
  ASSERT_EQ(done.state, farm_api::JobState::kSucceeded) << done.message << restarted.Log();
  EXPECT_EQ(done.trials_done, 20);
  EXPECT_EQ(RecordsOfModelJob(farm, done), 20);
  ExpectEachTrialRecordedOnce(farm, done);
}

TEST(FarmModelJobTest, CancelStopsItsTasksJobsAndKeepsTheirRecords) {
  Farm farm("model_job_cancel");
  farm.StartTracker();
  ChildProcess w = farm.StartWorker("mj-cancel");
  ASSERT_TRUE(farm.WaitForWorkers("mj-cancel", 1));
  auto client = farm.Client();
  absl::StatusOr<farm_api::ModelJobStatus> job =
      client->SubmitModelJob(ModelSpec(TwoTaskCnn(), "mj-cancel", 400));
  ASSERT_TRUE(job.ok()) << job.status();
  auto deadline = Farm::Deadline(60);
  while (std::chrono::steady_clock::now() < deadline) {
    absl::StatusOr<farm_api::ModelJobStatus> now = client->GetModelJob(job->id);
    if (now.ok() && RecordsOfModelJob(farm, *now) >= 2) break;
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  absl::StatusOr<farm_api::ModelJobStatus> cancelled = client->CancelModelJob(job->id);
  ASSERT_TRUE(cancelled.ok()) << cancelled.status();
  EXPECT_EQ(cancelled->state, farm_api::JobState::kCancelled) << cancelled->message;
  EXPECT_LT(cancelled->trials_done, 400);
  EXPECT_GE(RecordsOfModelJob(farm, *cancelled), 2);
  for (const farm_api::ModelTaskStatus& t : cancelled->tasks) {
    if (t.job_id.empty()) continue;
    absl::StatusOr<farm_api::JobStatus> task_job = client->GetJob(t.job_id);
    ASSERT_TRUE(task_job.ok());
    EXPECT_TRUE(farm_api::IsFinished(task_job->state)) << t.job_id;
  }
  ExpectEachTrialRecordedOnce(farm, *cancelled, /*some_never_ran=*/true);
  // Nothing more is given out once it is cancelled.
  std::this_thread::sleep_for(std::chrono::milliseconds(500));
  absl::StatusOr<farm_api::ModelJobStatus> later = client->GetModelJob(job->id);
  ASSERT_TRUE(later.ok());
  EXPECT_EQ(later->state, farm_api::JobState::kCancelled);
  EXPECT_EQ(RecordsOfModelJob(farm, *later), RecordsOfModelJob(farm, *cancelled));
}

TEST(FarmModelJobTest, BadModelJobsAreRefusedWithTheReason) {
  Farm farm("model_job_bad");
  farm.StartTracker();
  auto client = farm.Client();
  farm_api::ModelJobSpec spec = ModelSpec(TwoTaskCnn(), "mj-bad", 10);
  farm_api::ModelJobSpec no_tasks = spec;
  no_tasks.tasks.clear();
  farm_api::ModelJobSpec bad_workload = spec;
  bad_workload.tasks[1].workload = "conv2d_nchwc:1,2";
  farm_api::ModelJobSpec bad_weight = spec;
  bad_weight.tasks[0].weight = -1;
  farm_api::ModelJobSpec bad_key = spec;
  bad_key.device_key = "has space";
  for (const auto& [s, want] : {std::pair{no_tasks, "no tasks"},
                                {bad_workload, "task 1"},
                                {bad_weight, "weight"},
                                {bad_key, "device_key"}}) {
    absl::StatusOr<farm_api::ModelJobStatus> job = client->SubmitModelJob(s);
    ASSERT_FALSE(job.ok());
    EXPECT_EQ(job.status().code(), absl::StatusCode::kInvalidArgument) << job.status();
    EXPECT_THAT(std::string(job.status().message()), HasSubstr(want));
  }
  absl::StatusOr<std::vector<farm_api::ModelJobStatus>> listed = client->ListModelJobs(true, 0);
  ASSERT_TRUE(listed.ok());
  EXPECT_TRUE(listed->empty()) << "nothing is stored on error";
  EXPECT_EQ(client->GetModelJob("model-nope").status().code(), absl::StatusCode::kNotFound);

  // A latency is stored once tuning succeeded, and only a sane one.
  absl::StatusOr<farm_api::ModelJobStatus> waiting = client->SubmitModelJob(spec);
  ASSERT_TRUE(waiting.ok()) << waiting.status();
  EXPECT_EQ(client->ReportModelLatency(waiting->id, {0.01, 0.02, "w"}).status().code(),
            absl::StatusCode::kFailedPrecondition);
  EXPECT_EQ(client->ReportModelLatency(waiting->id, {-1, 0, "w"}).status().code(),
            absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(client->ReportModelLatency("model-nope", {0.01, 0, "w"}).status().code(),
            absl::StatusCode::kNotFound);
  ASSERT_TRUE(client->CancelModelJob(waiting->id).ok());
}

}  // namespace
}  // namespace tunefarm::integration
