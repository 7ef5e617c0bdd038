// The jobs table: rows go in and come back field for field, state updates persist across
// connections, unfinished jobs load oldest first and lists come newest first.
#include "tracker/job_table.h"

#include <filesystem>
#include <gtest/gtest.h>
#include <unistd.h>

#include "tuner/record_store.h"

namespace tunefarm::tracker {
namespace {

std::string FreshTableDb(const std::string& name) {
  std::filesystem::path dir =
      std::filesystem::path(::testing::TempDir()) / ("tf-job-table-" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  std::filesystem::path path = dir / (name + ".db");
  for (const char* suffix : {"", "-wal", "-shm"}) std::filesystem::remove(path.string() + suffix);
  return path.string();
}

JobRow Row(const std::string& id, int64_t created_ms,
           farm_api::JobState state = farm_api::JobState::kQueued) {
  JobRow r;
  r.status.id = id;
  r.status.workload_key = "matmul:16,16,16:float32";
  r.status.target = "llvm";
  r.status.device_key = "cpu";
  r.status.created_ms = created_ms;
  r.spec_json = R"({"workload":"matmul:16,16,16:float32"})";
  r.status.state = state;
  r.status.message = "m-" + id;
  r.status.trials = 6;
  r.status.priority = 3;
  r.status.tuner = "random";
  r.status.updated_ms = created_ms + 1;
  return r;
}

TEST(JobTableTest, InsertGetAndUpdate) {
  const std::string db = FreshTableDb("insert");
  absl::StatusOr<std::unique_ptr<JobTable>> table = JobTable::Open(db);
  ASSERT_TRUE(table.ok()) << table.status();
  const JobRow row = Row("job-00000001", 1000);
  ASSERT_TRUE((*table)->Insert(row).ok());
  EXPECT_EQ((*table)->Insert(row).code(), absl::StatusCode::kAlreadyExists);

  absl::StatusOr<JobRow> got = (*table)->Get(row.status.id);
  ASSERT_TRUE(got.ok()) << got.status();
  EXPECT_EQ(got->status.workload_key, row.status.workload_key);
  EXPECT_EQ(got->status.target, row.status.target);
  EXPECT_EQ(got->status.device_key, row.status.device_key);
  EXPECT_EQ(got->status.created_ms, row.status.created_ms);
  EXPECT_EQ(got->spec_json, row.spec_json);
  EXPECT_EQ(got->status.state, farm_api::JobState::kQueued);
  EXPECT_EQ(got->status.message, row.status.message);
  EXPECT_EQ(got->status.trials, 6);
  EXPECT_EQ(got->status.priority, 3);
  EXPECT_EQ(got->status.tuner, "random");
  EXPECT_EQ(got->status.updated_ms, 1001);
  EXPECT_EQ((*table)->Get("job-nope").status().code(), absl::StatusCode::kNotFound);

  ASSERT_TRUE((*table)->UpdateState(row.status.id, farm_api::JobState::kFailed, "boom", 5000).ok());
  EXPECT_EQ((*table)->UpdateState("job-nope", farm_api::JobState::kFailed, "", 1).code(),
            absl::StatusCode::kNotFound);
  table->reset();
  // A new connection (a restarted tracker) sees the update.
  absl::StatusOr<std::unique_ptr<JobTable>> reopened = JobTable::Open(db);
  ASSERT_TRUE(reopened.ok()) << reopened.status();
  got = (*reopened)->Get(row.status.id);
  ASSERT_TRUE(got.ok());
  EXPECT_EQ(got->status.state, farm_api::JobState::kFailed);
  EXPECT_EQ(got->status.message, "boom");
  EXPECT_EQ(got->status.updated_ms, 5000);
}

TEST(JobTableTest, UnfinishedOldestFirstAndListsNewestFirst) {
  const std::string db = FreshTableDb("lists");
  absl::StatusOr<std::unique_ptr<JobTable>> table = JobTable::Open(db);
  ASSERT_TRUE(table.ok()) << table.status();
  ASSERT_TRUE((*table)->Insert(Row("job-a", 300, farm_api::JobState::kRunning)).ok());
  ASSERT_TRUE((*table)->Insert(Row("job-b", 100, farm_api::JobState::kSucceeded)).ok());
  ASSERT_TRUE((*table)->Insert(Row("job-c", 200, farm_api::JobState::kQueued)).ok());
  ASSERT_TRUE((*table)->Insert(Row("job-d", 400, farm_api::JobState::kCancelled)).ok());

  absl::StatusOr<std::vector<JobRow>> unfinished = (*table)->LoadUnfinished();
  ASSERT_TRUE(unfinished.ok());
  ASSERT_EQ(unfinished->size(), 2u);
  EXPECT_EQ((*unfinished)[0].status.id, "job-c");
  EXPECT_EQ((*unfinished)[1].status.id, "job-a");

  absl::StatusOr<std::vector<JobRow>> all = (*table)->List(true, 0);
  ASSERT_TRUE(all.ok());
  std::vector<std::string> ids;
  for (const JobRow& r : *all) ids.push_back(r.status.id);
  EXPECT_EQ(ids, (std::vector<std::string>{"job-d", "job-a", "job-c", "job-b"}));
  absl::StatusOr<std::vector<JobRow>> two = (*table)->List(true, 2);
  ASSERT_TRUE(two.ok());
  EXPECT_EQ(two->size(), 2u);
  absl::StatusOr<std::vector<JobRow>> open = (*table)->List(false, 0);
  ASSERT_TRUE(open.ok());
  ASSERT_EQ(open->size(), 2u);
  EXPECT_EQ((*open)[0].status.id, "job-a");
}

TEST(JobTableTest, SharesTheRecordDatabase) {
  const std::string db = FreshTableDb("shared");
  absl::StatusOr<std::unique_ptr<JobTable>> table = JobTable::Open(db);
  ASSERT_TRUE(table.ok()) << table.status();
  absl::StatusOr<std::unique_ptr<tuner::RecordStore>> store = tuner::RecordStore::Open(db);
  ASSERT_TRUE(store.ok()) << store.status();
  absl::StatusOr<int> version = (*store)->SchemaVersion();
  ASSERT_TRUE(version.ok());
  EXPECT_GE(*version, 4);
  ASSERT_TRUE((*table)->Insert(Row("job-x", 1)).ok());
  tuner::Record r;
  r.workload_key = "matmul:16,16,16:float32";
  r.target = "llvm";
  r.device_key = "cpu";
  r.config_json = "{}";
  r.job_id = "job-x";
  ASSERT_TRUE((*store)->Insert(r).ok());
  absl::StatusOr<std::vector<tuner::Record>> history = (*store)->JobHistory("job-x");
  ASSERT_TRUE(history.ok());
  EXPECT_EQ(history->size(), 1u);
}

TEST(JobTableTest, ModelJobsAndTheirTasksJobs) {
  const std::string db = FreshTableDb("model_jobs");
  absl::StatusOr<std::unique_ptr<JobTable>> table = JobTable::Open(db);
  ASSERT_TRUE(table.ok()) << table.status();
  ModelJobRow m;
  m.status.id = "model-00000001";
  m.status.model_name = "resnet18.onnx";
  m.status.target = "llvm";
  m.status.device_key = "cpu";
  m.spec_json = R"({"tasks":[]})";
  m.status.state = farm_api::JobState::kRunning;
  m.status.trials = 400;
  m.status.created_ms = 10;
  m.status.updated_ms = 11;
  ASSERT_TRUE((*table)->InsertModelJob(m).ok());
  EXPECT_EQ((*table)->InsertModelJob(m).code(), absl::StatusCode::kAlreadyExists);
  ModelJobRow done = m;
  done.status.id = "model-00000002";
  done.status.state = farm_api::JobState::kSucceeded;
  done.status.created_ms = 20;
  ASSERT_TRUE((*table)->InsertModelJob(done).ok());

  absl::StatusOr<ModelJobRow> got = (*table)->GetModelJob(m.status.id);
  ASSERT_TRUE(got.ok()) << got.status();
  EXPECT_EQ(got->status.model_name, "resnet18.onnx");
  EXPECT_EQ(got->spec_json, m.spec_json);
  EXPECT_EQ(got->status.trials, 400);
  EXPECT_EQ(got->status.state, farm_api::JobState::kRunning);
  EXPECT_EQ((*table)->GetModelJob("model-nope").status().code(), absl::StatusCode::kNotFound);
  ASSERT_TRUE(
      (*table)
          ->UpdateModelJobState(m.status.id, farm_api::JobState::kCancelled, "cancelled", 30)
          .ok());
  EXPECT_EQ((*table)->UpdateModelJobState("model-nope", farm_api::JobState::kFailed, "", 1).code(),
            absl::StatusCode::kNotFound);
  absl::StatusOr<std::vector<ModelJobRow>> unfinished = (*table)->LoadUnfinishedModelJobs();
  ASSERT_TRUE(unfinished.ok());
  EXPECT_TRUE(unfinished->empty());
  absl::StatusOr<std::vector<ModelJobRow>> all = (*table)->ListModelJobs(true, 0);
  ASSERT_TRUE(all.ok());
  ASSERT_EQ(all->size(), 2u);
  EXPECT_EQ((*all)[0].status.id, done.status.id) << "newest first";
  EXPECT_EQ((*all)[1].status.message, "cancelled");

  // The tasks' jobs name their model job; reopening one gives it more trials and runs it again.
  JobRow task = Row("job-0000000a", 40, farm_api::JobState::kSucceeded);
  task.status.model_job_id = m.status.id;
  task.status.model_task = 1;
  ASSERT_TRUE((*table)->Insert(task).ok());
  ASSERT_TRUE((*table)->Insert(Row("job-0000000b", 41)).ok());
  absl::StatusOr<std::vector<JobRow>> tasks = (*table)->ListOfModelJob(m.status.id);
  ASSERT_TRUE(tasks.ok());
  ASSERT_EQ(tasks->size(), 1u);
  EXPECT_EQ((*tasks)[0].status.model_task, 1);
  ASSERT_TRUE((*table)->Reopen(task.status.id, 12, R"({"trials":12})", 50).ok());
  absl::StatusOr<JobRow> reopened = (*table)->Get(task.status.id);
  ASSERT_TRUE(reopened.ok());
  EXPECT_EQ(reopened->status.trials, 12);
  EXPECT_EQ(reopened->status.state, farm_api::JobState::kRunning);
  EXPECT_EQ(reopened->spec_json, R"({"trials":12})");
  EXPECT_EQ((*table)->Reopen("job-nope", 1, "{}", 1).code(), absl::StatusCode::kNotFound);
}

}  // namespace
}  // namespace tunefarm::tracker
