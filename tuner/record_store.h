// RecordStore: every measurement result, durably, in one SQLite file (WAL mode). Records are
// append-only; queries answer "best config so far", a job's history and error counts.
#pragma once

#include <cstdint>
#include <iosfwd>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "tuner/record.h"
#include "tuner/sqlite_db.h"

namespace tunefarm::tuner {

struct RecordStoreOptions {
  // How long a writer waits for another connection's write lock before giving up (Unavailable).
  int busy_timeout_ms = 5000;
};

struct BestQuery {
  std::string workload_key;
  std::string target;
  std::string device_key;
  std::optional<std::string> tunefarm_version;  // only records measured by this version
  CacheFlush cache_flush = CacheFlush::kNone;   // only records timed this way (Record)
};

// What a cost model may learn from for one task: records of its template on other shapes and, when
// `other_devices`, of any shape (its own included) on other device keys and targets.
struct TransferQuery {
  std::string template_name;
  std::string workload_key;  // the task's own
  std::string target;        // the task's own
  std::string device_key;    // the task's own; empty: its workload on every device is its own
  bool other_devices = true;
  CacheFlush cache_flush = CacheFlush::kNone;  // only records timed this way
  int64_t limit = 400;                         // newest first, at most this many
};

// " AND cache_flush = N": a query's filter on how its records were timed.
std::string CacheFlushFilter(CacheFlush cache_flush);

// " AND ...": leaves out a record measured under an emulator where its workload, target, device
// key and timing have an ok record of a real device (best queries never mix the two).
std::string RealBeforeEmulatedFilter();

// A record with its row id (increasing in insertion order), for pages that link to one record.
struct StoredRecord {
  int64_t id = 0;
  Record record;
};

// A workload the database has records of, with its FLOP count when known (PutWorkload).
struct WorkloadEntry {
  std::string key;
  std::optional<double> flops;
};

class RecordStore {
 public:
  // Opens or creates the database and migrates it to the latest schema. A file with a newer
  // schema than this build knows is FailedPrecondition and is left untouched.
  static absl::StatusOr<std::unique_ptr<RecordStore>> Open(const std::string& path,
                                                           RecordStoreOptions options = {});

  // Appends one record in its own transaction; returns its id (increasing in insertion order).
  absl::StatusOr<int64_t> Insert(const Record& record);
  // Appends all records in one transaction: all are stored or none.
  absl::Status InsertBatch(const std::vector<Record>& records);

  absl::Status PutWorkload(std::string_view key, double flops);
  absl::StatusOr<std::optional<double>> WorkloadFlops(std::string_view key);

  // The ok record with the lowest median repeat time (earliest wins a tie); nullopt when none.
  absl::StatusOr<std::optional<Record>> Best(const BestQuery& query);
  // Every record of (workload, target, device key), in insertion order: what a resumed tuning run
  // has already measured.
  absl::StatusOr<std::vector<Record>> TaskRecords(std::string_view workload_key,
                                                  std::string_view target,
                                                  std::string_view device_key,
                                                  CacheFlush cache_flush);
  // Records of the query's template (keys starting "<template>:") other than the task's own,
  // newest first: the training data of transfer learning.
  absl::StatusOr<std::vector<Record>> TransferRecords(const TransferQuery& query);
  // The best ok record of `workload_key` per (target, device key, timing), fastest first; `target`
  // empty means every target.
  absl::StatusOr<std::vector<Record>> BestPerDevice(std::string_view workload_key,
                                                    std::string_view target);
  // Every record of the job, in insertion order.
  absl::StatusOr<std::vector<Record>> JobHistory(std::string_view job_id);
  // Record count per error kind; kinds with no records are absent.
  absl::StatusOr<std::map<ErrorKind, int64_t>> CountByErrorKind();

  // --- for the dashboard (record_store_dashboard.cc) ---
  // JobHistory with the record ids.
  absl::StatusOr<std::vector<StoredRecord>> JobRecordsWithIds(std::string_view job_id);
  // NotFound naming the id.
  absl::StatusOr<StoredRecord> RecordById(int64_t id);
  // Every workload with records or a FLOP count, by key.
  absl::StatusOr<std::vector<WorkloadEntry>> Workloads();
  // BestPerDevice over every target, with ids; one query however many records there are.
  absl::StatusOr<std::vector<StoredRecord>> BestPerDeviceWithIds(std::string_view workload_key);
  // The best ok record of `query` (its version filter ignored) whose config equals
  // `config_json` (compared in canonical form); nullopt when none.
  absl::StatusOr<std::optional<StoredRecord>> BestWithConfig(const BestQuery& query,
                                                             std::string_view config_json);
  absl::StatusOr<int64_t> RecordCount();

  // --- JSON lines (record_store_jsonl.cc, docs/records.md) ---
  // The id of the newest record; 0 when there is none.
  absl::StatusOr<int64_t> LastRecordId();
  // Appends to `out` the records with ids in (after_id, up_to_id], at most `limit`, one JSON line
  // each in id order; returns the last id written (after_id when none was). Records are
  // append-only, so pages up to the id that was last when an export began are a snapshot of that
  // moment, taken without one long read transaction or lock.
  absl::StatusOr<int64_t> ExportPage(int64_t after_id, int64_t up_to_id, int64_t limit,
                                     std::string* out);
  // Every record as one JSON line, in insertion order, written page by page.
  absl::Status ExportJsonLines(std::ostream& out);
  // Appends the records of `in` through a RecordImport: a bad line fails the whole import with
  // InvalidArgument naming its line number, and nothing is stored. Blank lines are skipped.
  absl::StatusOr<int64_t> ImportJsonLines(std::istream& in);

  absl::StatusOr<int> SchemaVersion();

  // A trained cost model under `scope` (e.g. "matmul|llvm ...|local-epyc"); replaces the old one.
  absl::Status PutModel(std::string_view scope, std::string_view bytes, int64_t training_rows);
  // The model stored under `scope`, or nullopt.
  absl::StatusOr<std::optional<std::string>> GetModel(std::string_view scope);

 private:
  friend class RecordImport;  // stages into a temporary table of this connection

  static constexpr const char* kRecordColumns =
      "workload_key, target, device_key, config_json, repeat_seconds_json, error_kind, "
      "error_message, build_seconds, measured_by, timestamp_ms, tunefarm_version, job_id, "
      "built_by, "
      "cache_flush, canary_ratio, noisy, emulated";

  explicit RecordStore(SqliteDb db) : db_(std::move(db)) {}
  absl::Status InsertOne(const Record& record);
  // Checks the record (canonical config, a workload key) and inserts its row into `table`
  // ("records", or an import's staging table), without its workload row.
  absl::Status InsertRecordRow(const Record& record, std::string_view table);
  absl::StatusOr<std::vector<Record>> QueryRecords(std::string_view where_sql,
                                                   const std::vector<std::string>& params);
  // "SELECT id, <columns> FROM records <where_sql>", params bound as text.
  absl::StatusOr<std::vector<StoredRecord>> QueryStoredRecords(
      std::string_view where_sql, const std::vector<std::string>& params);

  SqliteDb db_;
};

}  // namespace tunefarm::tuner
