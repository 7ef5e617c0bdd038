// The tuning loop with the real local builder and isolated runner: every outcome is recorded and
// tuning goes on, runs resume from the records, early stopping and stop requests end it cleanly.
#include "tuner/tuning_loop.h"

#include <atomic>
#include <filesystem>
#include <gtest/gtest.h>

#include "tests/unit/tuner/measure/probe_template.h"
#include "tuner/measure/local_measure.h"
#include "tuner/search/grid_search.h"
#include "tuner/search/random_search.h"

namespace tunefarm::tuner {
namespace {

std::string FreshDb(const std::string& name) {
  std::filesystem::path dir = std::filesystem::path(::testing::TempDir()) / ("tf_loop_" + name);
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  return (dir / "tf.db").string();
}

std::unique_ptr<Task> ProbeTask() {
  auto task = Task::FromTemplate(Workload{"probe", {32}, "float32"},
                                 std::make_unique<testing::ProbeTemplate>(), target::Target::Host(),
                                 topi::DetectHostCpu());
  EXPECT_TRUE(task.ok()) << task.status();
  return *std::move(task);
}

LocalMeasure MakeMeasure() {
  MeasureOptions m;
  m.repeat = 2;
  m.min_repeat_ms = 1;
  m.run_timeout_s = 1.5;
  auto measure = MakeLocalMeasure(m, "test-device");
  EXPECT_TRUE(measure.ok()) << measure.status();
  return *std::move(measure);
}

TEST(TuningLoopTest, EveryOutcomeIsRecordedAndTuningGoesOn) {
  std::unique_ptr<Task> task = ProbeTask();
  auto store = RecordStore::Open(FreshDb("outcomes"));
  ASSERT_TRUE(store.ok()) << store.status();
  LocalMeasure m = MakeMeasure();
  GridSearch grid(task->space());
  TuneOptions options;
  options.trials = 100;  // more than the 12 configs: the space runs out first
  options.batch_size = 5;
  options.job_id = "job-outcomes";
  int updates = 0;
  options.on_progress = [&](const TuneProgress&) { ++updates; };
  auto summary = Tune(*task, grid, *m.builder, *m.runner, store->get(), options);
  ASSERT_TRUE(summary.ok()) << summary.status();
  EXPECT_TRUE(summary->exhausted);
  EXPECT_EQ(summary->progress.trials_done, 12);
  EXPECT_EQ(summary->progress.errors, 10);
  EXPECT_GT(updates, 2);
  auto counts = (*store)->CountByErrorKind();
  ASSERT_TRUE(counts.ok());
  std::map<ErrorKind, int64_t> want = {
      {ErrorKind::kOk, 2},         {ErrorKind::kWrongAnswer, 2},   {ErrorKind::kRuntimeError, 2},
      {ErrorKind::kRunTimeout, 2}, {ErrorKind::kInvalidConfig, 2}, {ErrorKind::kBuildError, 2}};
  EXPECT_EQ(*counts, want);
  ASSERT_TRUE(summary->best.has_value());
  EXPECT_EQ(summary->best->device_key, "test-device");
  EXPECT_NE(summary->best->config_json.find("\"ok\""), std::string::npos);
  auto history = (*store)->JobHistory("job-outcomes");
  ASSERT_TRUE(history.ok());
  EXPECT_EQ(history->size(), 12u);
}

TEST(TuningLoopTest, ASecondRunResumesWithoutMeasuringAConfigAgain) {
  std::unique_ptr<Task> task = ProbeTask();
  std::string db = FreshDb("resume");
  auto store = RecordStore::Open(db);
  ASSERT_TRUE(store.ok());
  LocalMeasure m = MakeMeasure();
  TuneOptions options;
  options.trials = 3;
  options.batch_size = 3;
  {
    RandomSearch random(task->space(), 1);
    auto first = Tune(*task, random, *m.builder, *m.runner, store->get(), options);
    ASSERT_TRUE(first.ok()) << first.status();
    EXPECT_EQ(first->progress.trials_done, 3);
  }
  {
    // Same seed: without resuming it would propose the same configs again.
    RandomSearch random(task->space(), 1);
    auto second = Tune(*task, random, *m.builder, *m.runner, store->get(), options);
    ASSERT_TRUE(second.ok()) << second.status();
    EXPECT_EQ(second->progress.trials_done, 3);
  }
  auto records =
      (*store)->TaskRecords(task->key(), task->target().str(), "test-device", CacheFlush::kNone);
  ASSERT_TRUE(records.ok());
  ASSERT_EQ(records->size(), 6u);
  std::set<std::string> configs;
  for (const Record& r : *records) configs.insert(r.config_json);
  EXPECT_EQ(configs.size(), 6u);
}

TEST(TuningLoopTest, EarlyStoppingAndStopRequestsEndTheRun) {
  std::unique_ptr<Task> task = ProbeTask();
  LocalMeasure m = MakeMeasure();
  {
    // Grid order: the default (ok, tile 1) first, then five failing behaviors: no new best.
    GridSearch grid(task->space());
    TuneOptions options;
    options.trials = 12;
    options.batch_size = 1;
    options.early_stopping = 3;
    auto summary = Tune(*task, grid, *m.builder, *m.runner, nullptr, options);
    ASSERT_TRUE(summary.ok()) << summary.status();
    EXPECT_TRUE(summary->early_stopped);
    EXPECT_EQ(summary->progress.trials_done, 4);
    ASSERT_TRUE(summary->best.has_value());  // without a store, the run's own best
  }
  {
    GridSearch grid(task->space());
    std::atomic<bool> stop{false};
    TuneOptions options;
    options.trials = 12;
    options.batch_size = 2;
    options.measure_default_first = false;
    options.stop = &stop;
    options.on_progress = [&](const TuneProgress&) { stop = true; };
    auto summary = Tune(*task, grid, *m.builder, *m.runner, nullptr, options);
    ASSERT_TRUE(summary.ok()) << summary.status();
    EXPECT_TRUE(summary->interrupted);
    EXPECT_EQ(summary->progress.trials_done, 2);
  }
}

TEST(TuningLoopTest, BadOptionsAreRejected) {
  std::unique_ptr<Task> task = ProbeTask();
  LocalMeasure m = MakeMeasure();
  GridSearch grid(task->space());
  TuneOptions options;
  options.batch_size = 0;
  auto summary = Tune(*task, grid, *m.builder, *m.runner, nullptr, options);
  EXPECT_EQ(summary.status().code(), absl::StatusCode::kInvalidArgument);
}

}  // namespace
}  // namespace tunefarm::tuner
