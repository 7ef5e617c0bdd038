// RecordStore's queries for the tracker's dashboard: records with their ids (a page links to each
// one), the workloads table, and the leaderboard's best-per-device and default-config lookups.
#include <string>

#include "absl/strings/str_cat.h"
#include "tuner/record_json.h"
#include "tuner/record_store.h"

namespace tunefarm::tuner {

absl::StatusOr<std::vector<StoredRecord>> RecordStore::JobRecordsWithIds(std::string_view job_id) {
  return QueryStoredRecords("WHERE job_id = ? ORDER BY id", {std::string(job_id)});
}

absl::StatusOr<StoredRecord> RecordStore::RecordById(int64_t id) {
  absl::StatusOr<std::vector<StoredRecord>> rows =
      QueryStoredRecords(absl::StrCat("WHERE id = ", id), {});
  if (!rows.ok()) return rows.status();
  if (rows->empty()) return absl::NotFoundError(absl::StrCat("no record with id ", id));
  return std::move(rows->front());
}

absl::StatusOr<std::vector<WorkloadEntry>> RecordStore::Workloads() {
  absl::StatusOr<SqliteStatement> stmt =
      db_.Prepare("SELECT key, flops FROM workloads ORDER BY key");
  if (!stmt.ok()) return stmt.status();
  std::vector<WorkloadEntry> out;
  while (true) {
    absl::StatusOr<bool> row = stmt->Step();
    if (!row.ok()) return row.status();
    if (!*row) return out;
    WorkloadEntry w{stmt->ColumnText(0), std::nullopt};
    if (!stmt->ColumnIsNull(1)) w.flops = stmt->ColumnDouble(1);
    out.push_back(std::move(w));
  }
}

absl::StatusOr<std::vector<StoredRecord>> RecordStore::BestPerDeviceWithIds(
    std::string_view workload_key) {
  // A window picks each (target, device) pair's fastest row inside SQLite (the records_best index
  // serves the filter), so the leaderboard does not read every record of a busy workload.
  return QueryStoredRecords(
      "WHERE id IN (SELECT id FROM (SELECT id, row_number() OVER (PARTITION BY target, device_key, "
      "cache_flush ORDER BY median_seconds, id) AS rank FROM records WHERE workload_key = ? AND "
      "error_kind = "
      "'ok' AND median_seconds IS NOT NULL" +
          RealBeforeEmulatedFilter() + ") WHERE rank = 1) ORDER BY median_seconds, id",
      {std::string(workload_key)});
}

absl::StatusOr<std::optional<StoredRecord>> RecordStore::BestWithConfig(
    const BestQuery& query, std::string_view config_json) {
  // Stored configs are canonical (InsertOne), so the canonical form compares equal in SQL.
  absl::StatusOr<std::string> config = CanonicalConfigJson(config_json);
  if (!config.ok()) return config.status();
  absl::StatusOr<std::vector<StoredRecord>> rows = QueryStoredRecords(
      absl::StrCat("WHERE workload_key = ? AND target = ? AND device_key = ? AND error_kind = 'ok' "
                   "AND median_seconds IS NOT NULL AND config_json = ?",
                   CacheFlushFilter(query.cache_flush), RealBeforeEmulatedFilter(),
                   " ORDER BY median_seconds, id LIMIT 1"),
      {query.workload_key, query.target, query.device_key, *config});
  if (!rows.ok()) return rows.status();
  if (rows->empty()) return std::optional<StoredRecord>();
  return std::optional<StoredRecord>(std::move(rows->front()));
}

}  // namespace tunefarm::tuner
