// JobTable: the `jobs` and `model_jobs` tables of the record database (schema v4 and v6), where
// the tracker keeps every job's and model job's spec and state so that a restarted tracker finds
// its unfinished ones again.
#pragma once

#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "farm_api/job.h"
#include "farm_api/model_job.h"
#include "tuner/sqlite_db.h"

namespace tunefarm::tracker {

// One row: the status's stored part (not its progress, which is counted from the records, nor
// its version) and the spec JSON as stored (farm_api::JobSpecFromJson parses it), so a row whose
// spec no longer parses can still be listed and marked failed.
struct JobRow {
  farm_api::JobStatus status;
  std::string spec_json;
};

// One model job's row, the same way (its tasks, trials done and estimate come from its tasks'
// jobs, which are rows of `jobs` naming it in model_job_id).
struct ModelJobRow {
  farm_api::ModelJobStatus status;
  std::string spec_json;  // farm_api::ModelJobSpecFromJson parses it
};

// Thread-safe: one connection behind a mutex (engine threads report state changes concurrently).
class JobTable {
 public:
  // Opens the record database through tuner::RecordStore::Open first, which creates it or
  // migrates it to the latest schema, then opens this table's own connection.
  static absl::StatusOr<std::unique_ptr<JobTable>> Open(const std::string& db_path);

  // AlreadyExists when the id is taken.
  absl::Status Insert(const JobRow& row);
  // NotFound for an unknown id.
  absl::Status UpdateState(const std::string& id, farm_api::JobState state,
                           const std::string& message, int64_t updated_ms);
  // A model job's task gets more trials: its total and its spec (which records the total)
  // change and it is running again, in one write (a tracker killed after it resumes the job).
  // NotFound for an unknown id.
  absl::Status Reopen(const std::string& id, int trials, const std::string& spec_json,
                      int64_t updated_ms);
  // The tasks' jobs of a model job, oldest first.
  absl::StatusOr<std::vector<JobRow>> ListOfModelJob(const std::string& model_job_id);
  // Queued and running jobs, oldest first: what a starting tracker resumes.
  absl::StatusOr<std::vector<JobRow>> LoadUnfinished();
  // Newest first, at most `limit` (<= 0: all); `include_finished` false: queued and running only.
  absl::StatusOr<std::vector<JobRow>> List(bool include_finished, int limit);
  // NotFound for an unknown id.
  absl::StatusOr<JobRow> Get(const std::string& id);

  // The same for model jobs. AlreadyExists / NotFound as above.
  absl::Status InsertModelJob(const ModelJobRow& row);
  absl::Status UpdateModelJobState(const std::string& id, farm_api::JobState state,
                                   const std::string& message, int64_t updated_ms);
  // The whole model's latency on a device, measured once its tuning ended. NotFound.
  absl::Status SetModelJobLatency(const std::string& id, const farm_api::ModelLatency& latency,
                                  int64_t updated_ms);
  absl::StatusOr<std::vector<ModelJobRow>> LoadUnfinishedModelJobs();
  absl::StatusOr<std::vector<ModelJobRow>> ListModelJobs(bool include_finished, int limit);
  absl::StatusOr<ModelJobRow> GetModelJob(const std::string& id);

 private:
  explicit JobTable(tuner::SqliteDb db) : db_(std::move(db)) {}
  template <typename Row>
  absl::StatusOr<std::vector<Row>> Query(const std::string& where_and_order,
                                         const std::vector<std::string>& params);
  absl::Status UpdateStateOf(const char* table, const std::string& id, farm_api::JobState state,
                             const std::string& message, int64_t updated_ms);
  absl::Status CheckIdFree(const char* table, const std::string& id);

  std::mutex mu_;
  tuner::SqliteDb db_;
};

}  // namespace tunefarm::tracker
