// JobTable: the `jobs` table of the record database (schema v4), where the tracker keeps every
// job's spec and state so that a restarted tracker finds its unfinished jobs again.
#pragma once

#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "tracker/job.h"
#include "tuner/sqlite_db.h"

namespace tunefarm::tracker {

// One row. `spec_json` is kept as stored (JobSpecFromJson parses it), so a row whose spec no
// longer parses can still be listed and marked failed.
struct JobRow {
  std::string id;
  std::string workload_key;
  std::string target;
  std::string device_key;
  int64_t created_ms = 0;
  std::string spec_json;
  JobState state = JobState::kQueued;
  std::string message;
  int trials = 0;
  int priority = 1;
  std::string tuner;
  int64_t updated_ms = 0;
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
  absl::Status UpdateState(const std::string& id, JobState state, const std::string& message,
                           int64_t updated_ms);
  // Queued and running jobs, oldest first: what a starting tracker resumes.
  absl::StatusOr<std::vector<JobRow>> LoadUnfinished();
  // Newest first, at most `limit` (<= 0: all); `include_finished` false: queued and running only.
  absl::StatusOr<std::vector<JobRow>> List(bool include_finished, int limit);
  // NotFound for an unknown id.
  absl::StatusOr<JobRow> Get(const std::string& id);

 private:
  explicit JobTable(tuner::SqliteDb db) : db_(std::move(db)) {}
  absl::StatusOr<std::vector<JobRow>> Query(const std::string& where_and_order,
                                            const std::vector<std::string>& params);

  std::mutex mu_;
  tuner::SqliteDb db_;
};

}  // namespace tunefarm::tracker
