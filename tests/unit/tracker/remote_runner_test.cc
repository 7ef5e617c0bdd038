// The remote runner with a real builder and a real in-process fleet: results come back from the
// workers and are stored exactly once, a killed worker's lease is measured elsewhere, a stop
// returns cancelled results, and the tuning loop runs on it unchanged.
#include "tracker/remote_runner.h"

#include <atomic>
#include <filesystem>
#include <gtest/gtest.h>
#include <set>
#include <thread>

#include "tests/unit/tracker/in_process_fleet.h"
#include "tuner/measure/local_builder.h"
#include "tuner/search/random_search.h"
#include "tuner/templates/template_registry.h"
#include "tuner/tuning_loop.h"

namespace tunefarm::tracker {
namespace {

using testing::InProcessFleet;

constexpr char kKey[] = "test-cpu";

std::string FreshDb(const std::string& name) {
  std::filesystem::path dir = std::filesystem::path(::testing::TempDir()) / ("tf_remote_" + name);
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  return (dir / "tf.db").string();
}

tuner::MeasureOptions Measure() {
  tuner::MeasureOptions m;
  m.repeat = 2;
  m.min_repeat_ms = 1;
  m.run_timeout_s = 10;
  return m;
}

struct BuiltBatch {
  std::unique_ptr<tuner::Task> task;
  std::unique_ptr<tuner::LocalBuilder> builder;
  std::vector<tuner::MeasureInput> inputs;
  std::vector<tuner::BuildResult> builds;

  // The first `n` valid configs of a tiny matmul, built.
  explicit BuiltBatch(int n) {
    auto t = tuner::CreateTask(*tuner::ParseWorkloadKey("matmul:16,16,16:float32"), "llvm");
    EXPECT_TRUE(t.ok()) << t.status();
    task = *std::move(t);
    tuner::LocalBuilderOptions options;
    options.parallelism = 1;
    options.measure = Measure();
    auto b = tuner::LocalBuilder::Create(options);
    EXPECT_TRUE(b.ok()) << b.status();
    builder = *std::move(b);
    for (int64_t i = 0; i < task->space().size() && static_cast<int>(inputs.size()) < n; ++i) {
      absl::StatusOr<space::Config> c = task->space().Get(i);
      if (c.ok() && task->space().IsValid(*c)) inputs.push_back({task.get(), *c});
    }
    builds = builder->Build(inputs);
    for (const tuner::BuildResult& b : builds) {
      EXPECT_EQ(b.error_kind, tuner::ErrorKind::kOk) << b.error_message;
    }
  }
};

RemoteRunnerOptions RunnerOptions(const std::string& job, const std::atomic<bool>* stop = nullptr) {
  RemoteRunnerOptions o;
  o.device_key = kKey;
  o.job_id = job;
  o.measure = Measure();
  o.stop = stop;
  return o;
}

TEST(RemoteRunnerTest, TwoWorkersMeasureEveryCandidateAndEachIsStoredOnce) {
  BuiltBatch s(4);
  // A failed build passes through unmeasured and unrecorded (the loop records it).
  s.inputs.push_back(s.inputs[0]);
  tuner::BuildResult failed;
  failed.error_kind = tuner::ErrorKind::kBuildError;
  failed.error_message = "no";
  s.builds.push_back(failed);
  auto store = tuner::RecordStore::Open(FreshDb("two"));
  ASSERT_TRUE(store.ok()) << store.status();
  Dispatcher dispatcher;
  InProcessFleet fleet(dispatcher);
  std::string w1 = fleet.AddWorker(kKey);
  std::string w2 = fleet.AddWorker(kKey);
  RemoteRunner runner(dispatcher, fleet, store->get(), RunnerOptions("job-two"));
  EXPECT_EQ(runner.device_key(), kKey);
  std::vector<tuner::MeasureResult> results = runner.Run(s.inputs, s.builds, 0);
  ASSERT_EQ(results.size(), 5u);
  for (int i = 0; i < 4; ++i) {
    EXPECT_EQ(results[i].error_kind, tuner::ErrorKind::kOk) << results[i].error_message;
    EXPECT_EQ(results[i].repeat_seconds.size(), 2u);
    EXPECT_TRUE(results[i].measured_by == w1 || results[i].measured_by == w2)
        << results[i].measured_by;
    EXPECT_TRUE(results[i].recorded);
    EXPECT_FALSE(results[i].cancelled);
  }
  std::set<std::string> measured_by;
  for (int i = 0; i < 4; ++i) measured_by.insert(results[i].measured_by);
  EXPECT_EQ(measured_by.size(), 2u);  // both were idle when the first two were submitted
  EXPECT_EQ(results[4].error_kind, tuner::ErrorKind::kBuildError);
  EXPECT_FALSE(results[4].recorded);
  auto history = (*store)->JobHistory("job-two");
  ASSERT_TRUE(history.ok());
  ASSERT_EQ(history->size(), 4u);
  std::set<std::string> configs;
  for (const tuner::Record& r : *history) {
    configs.insert(r.config_json);
    EXPECT_EQ(r.device_key, kKey);
  }
  EXPECT_EQ(configs.size(), 4u);
  EXPECT_EQ(dispatcher.LeasesOutstanding(), 0);
}

TEST(RemoteRunnerTest, AWorkerKilledMidMeasurementLosesNothing) {
  BuiltBatch s(3);
  auto store = tuner::RecordStore::Open(FreshDb("kill"));
  ASSERT_TRUE(store.ok()) << store.status();
  Dispatcher dispatcher;
  InProcessFleet fleet(dispatcher);
  std::string doomed = fleet.AddWorker(kKey);
  fleet.AddWorker(kKey);
  fleet.KillMidMeasurement(doomed);
  RemoteRunner runner(dispatcher, fleet, store->get(), RunnerOptions("job-kill"));
  std::vector<tuner::MeasureResult> results = runner.Run(s.inputs, s.builds, 0);
  EXPECT_TRUE(fleet.WaitUntilDead(doomed));
  for (const tuner::MeasureResult& r : results) {
    EXPECT_EQ(r.error_kind, tuner::ErrorKind::kOk) << r.error_message;
    EXPECT_NE(r.measured_by, doomed);
  }
  EXPECT_EQ(fleet.Reported(doomed), 0);
  auto history = (*store)->JobHistory("job-kill");
  ASSERT_TRUE(history.ok());
  EXPECT_EQ(history->size(), 3u);
  EXPECT_EQ(dispatcher.WorkersFor(kKey), 1);
}

TEST(RemoteRunnerTest, AStopReturnsCancelledResultsAndRecordsNothing) {
  BuiltBatch s(2);
  auto store = tuner::RecordStore::Open(FreshDb("stop"));
  ASSERT_TRUE(store.ok()) << store.status();
  Dispatcher dispatcher;
  InProcessFleet fleet(dispatcher);
  fleet.AddWorker("another-key");  // no worker of the job's key: the work waits
  std::atomic<bool> stop{false};
  RemoteRunner runner(dispatcher, fleet, store->get(), RunnerOptions("job-stop", &stop));
  std::thread stopper([&] {
    while (dispatcher.QueuedFor(kKey) < 2)
      std::this_thread::sleep_for(std::chrono::milliseconds(5));
    stop = true;
    runner.Interrupt();
  });
  std::vector<tuner::MeasureResult> results = runner.Run(s.inputs, s.builds, 0);
  stopper.join();
  ASSERT_EQ(results.size(), 2u);
  for (const tuner::MeasureResult& r : results) {
    EXPECT_TRUE(r.cancelled);
    EXPECT_FALSE(r.recorded);
  }
  EXPECT_EQ(dispatcher.QueuedFor(kKey), 0);
  auto count = (*store)->RecordCount();
  ASSERT_TRUE(count.ok());
  EXPECT_EQ(*count, 0);
}

TEST(RemoteRunnerTest, AStopWhileMeasuringKeepsWhatWasMeasured) {
  BuiltBatch s(5);
  auto store = tuner::RecordStore::Open(FreshDb("stop_busy"));
  ASSERT_TRUE(store.ok()) << store.status();
  Dispatcher dispatcher;
  InProcessFleet fleet(dispatcher);
  fleet.AddWorker(kKey);
  std::atomic<bool> stop{false};
  RemoteRunner runner(dispatcher, fleet, store->get(), RunnerOptions("job-stop-busy", &stop));
  std::thread stopper([&] {
    while (dispatcher.Workers(kKey)[0].measured < 1) {
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
    stop = true;
    runner.Interrupt();
  });
  std::vector<tuner::MeasureResult> results = runner.Run(s.inputs, s.builds, 0);
  stopper.join();
  int recorded = 0;
  for (const tuner::MeasureResult& r : results) {
    EXPECT_NE(r.recorded, r.cancelled);  // each one either measured and stored, or cancelled
    if (r.recorded) {
      ++recorded;
      EXPECT_EQ(r.error_kind, tuner::ErrorKind::kOk) << r.error_message;
    }
  }
  EXPECT_GE(recorded, 1);
  auto count = (*store)->RecordCount();
  ASSERT_TRUE(count.ok());
  EXPECT_EQ(*count, recorded);
  EXPECT_EQ(dispatcher.QueuedFor(kKey), 0);
  EXPECT_EQ(dispatcher.LeasesOutstanding(), 0);
}

TEST(RemoteRunnerTest, WorkWaitsForAWorkerOfItsKey) {
  BuiltBatch s(2);
  Dispatcher dispatcher;
  InProcessFleet fleet(dispatcher);
  RemoteRunner runner(dispatcher, fleet, nullptr, RunnerOptions("job-wait"));
  std::string late;
  std::thread joiner([&] {
    while (dispatcher.QueuedFor(kKey) < 2)
      std::this_thread::sleep_for(std::chrono::milliseconds(5));
    late = fleet.AddWorker(kKey);
  });
  std::vector<tuner::MeasureResult> results = runner.Run(s.inputs, s.builds, 0);
  joiner.join();
  for (const tuner::MeasureResult& r : results) {
    EXPECT_EQ(r.error_kind, tuner::ErrorKind::kOk) << r.error_message;
    EXPECT_EQ(r.measured_by, late);
    EXPECT_FALSE(r.recorded);  // no store
  }
  EXPECT_EQ(fleet.Reported(late), 2);
}

TEST(RemoteRunnerTest, AnOversizedArtifactIsABuildError) {
  BuiltBatch s(1);
  Dispatcher dispatcher;
  InProcessFleet fleet(dispatcher);
  RemoteRunnerOptions options = RunnerOptions("job-big");
  options.max_artifact_bytes = 100;
  RemoteRunner runner(dispatcher, fleet, nullptr, options);
  std::vector<tuner::MeasureResult> results = runner.Run(s.inputs, s.builds, 0);
  ASSERT_EQ(results.size(), 1u);
  EXPECT_EQ(results[0].error_kind, tuner::ErrorKind::kBuildError);
  EXPECT_NE(results[0].error_message.find("limit of 100 bytes"), std::string::npos)
      << results[0].error_message;
  EXPECT_EQ(dispatcher.QueuedFor(kKey), 0);
}

TEST(RemoteRunnerTest, TheTuningLoopRunsOnTheFarm) {
  auto t = tuner::CreateTask(*tuner::ParseWorkloadKey("matmul:16,16,16:float32"), "llvm");
  ASSERT_TRUE(t.ok()) << t.status();
  std::unique_ptr<tuner::Task> task = *std::move(t);
  tuner::LocalBuilderOptions build_options;
  build_options.parallelism = 1;
  build_options.measure = Measure();
  auto builder = tuner::LocalBuilder::Create(build_options);
  ASSERT_TRUE(builder.ok()) << builder.status();
  auto store = tuner::RecordStore::Open(FreshDb("tune"));
  ASSERT_TRUE(store.ok()) << store.status();
  Dispatcher dispatcher;
  InProcessFleet fleet(dispatcher);
  fleet.AddWorker(kKey);
  fleet.AddWorker(kKey);
  RemoteRunner runner(dispatcher, fleet, store->get(), RunnerOptions("job-tune"));
  tuner::RandomSearch search(task->space(), 7);
  tuner::TuneOptions options;
  options.trials = 6;
  options.batch_size = 3;
  options.job_id = "job-tune";
  auto summary = tuner::Tune(*task, search, **builder, runner, store->get(), options);
  ASSERT_TRUE(summary.ok()) << summary.status();
  EXPECT_EQ(summary->progress.trials_done, 6);
  ASSERT_TRUE(summary->best.has_value());
  auto history = (*store)->JobHistory("job-tune");
  ASSERT_TRUE(history.ok());
  ASSERT_EQ(history->size(), 6u);
  std::set<std::string> configs;
  for (const tuner::Record& r : *history) configs.insert(r.config_json);
  EXPECT_EQ(configs.size(), 6u);
}

}  // namespace
}  // namespace tunefarm::tracker
