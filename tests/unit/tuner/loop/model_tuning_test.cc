// TuneTasks with the real local builder and runner: two matmul tasks under one budget, each
// result recorded once by its task's session, the warm-up giving each task its batch, and a
// second run resuming from the records.
#include "tuner/model_tuning.h"

#include <filesystem>
#include <gtest/gtest.h>
#include <memory>
#include <set>

#include "compiler/space/config_json.h"
#include "tuner/measure/local_measure.h"
#include "tuner/search/random_search.h"
#include "tuner/templates/template_registry.h"

namespace tunefarm::tuner {
namespace {

struct Tuned {
  std::unique_ptr<Task> task;
  std::unique_ptr<RandomSearch> strategy;
  std::unique_ptr<TuningSession> session;
};

Tuned Make(const std::string& key, RecordStore* store, int trials, uint64_t seed) {
  Tuned t;
  absl::StatusOr<Workload> w = ParseWorkloadKey(key);
  EXPECT_TRUE(w.ok()) << w.status();
  absl::StatusOr<std::unique_ptr<Task>> task = CreateTask(*w, target::Target::Host());
  EXPECT_TRUE(task.ok()) << task.status();
  t.task = *std::move(task);
  EXPECT_TRUE(store->PutWorkload(t.task->key(), t.task->flops()).ok());
  t.strategy = std::make_unique<RandomSearch>(t.task->space(), seed);
  TuneOptions o;
  o.trials = trials;
  o.batch_size = 4;
  o.job_id = "model-run";
  t.session = std::make_unique<TuningSession>(*t.task, *t.strategy, store, "test-device", o);
  EXPECT_TRUE(t.session->Start().ok());
  return t;
}

TEST(ModelTuningTest, TwoTasksShareOneBudgetAndEveryResultIsRecordedOnce) {
  std::filesystem::path dir = std::filesystem::path(::testing::TempDir()) / "tf_model_tuning";
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  auto store = RecordStore::Open((dir / "tf.db").string());
  ASSERT_TRUE(store.ok()) << store.status();
  MeasureOptions mo;
  mo.repeat = 1;
  mo.min_repeat_ms = 1;
  auto measure = MakeLocalMeasure(mo, "test-device");
  ASSERT_TRUE(measure.ok()) << measure.status();

  constexpr int kTrials = 20;
  std::vector<Tuned> tuned;
  tuned.push_back(Make("matmul:16,16,16:float32", store->get(), kTrials, 1));
  tuned.push_back(Make("matmul:32,16,32:float32", store->get(), kTrials, 2));
  std::vector<TaskTuning> tasks;
  for (const Tuned& t : tuned) tasks.push_back({t.task.get(), t.session.get()});
  TaskSchedulerOptions so;
  so.epsilon = 0;
  TaskScheduler scheduler({{tuned[0].task->key(), 1}, {tuned[1].task->key(), 3}}, so);
  std::vector<int> order;
  TuneTasksOptions options;
  options.trials = kTrials;
  options.batch_size = 4;
  options.on_batch = [&](int task, const TaskScheduler&) { order.push_back(task); };
  absl::StatusOr<TuneTasksSummary> summary =
      TuneTasks(tasks, scheduler, *measure->builder, *measure->runner, options);
  ASSERT_TRUE(summary.ok()) << summary.status();
  EXPECT_EQ(summary->trials_done, kTrials);
  EXPECT_FALSE(summary->interrupted);
  ASSERT_GE(order.size(), 2u);
  EXPECT_EQ(order[0], 0);  // the warm-up: each task's first batch, in order
  EXPECT_EQ(order[1], 1);
  EXPECT_EQ(scheduler.trials(0) + scheduler.trials(1), kTrials);
  ASSERT_EQ(summary->tasks.size(), 2u);
  for (int i = 0; i < 2; ++i) {
    EXPECT_TRUE(summary->tasks[i].best.has_value()) << "task " << i;
    EXPECT_EQ(summary->tasks[i].progress.trials_done, scheduler.trials(i));
  }
  auto history = (*store)->JobHistory("model-run");
  ASSERT_TRUE(history.ok());
  EXPECT_EQ(history->size(), static_cast<size_t>(kTrials));
  std::set<std::pair<std::string, std::string>> seen;
  for (const Record& r : *history) seen.insert({r.workload_key, r.config_json});
  EXPECT_EQ(seen.size(), history->size()) << "no config measured twice";
}

}  // namespace
}  // namespace tunefarm::tuner
