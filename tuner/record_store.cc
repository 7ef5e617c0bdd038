#include "tuner/record_store.h"

#include <nlohmann/json.hpp>
#include <utility>

#include "absl/strings/str_cat.h"
#include "runtime/core/json_nesting.h"
#include "spdlog/spdlog.h"
#include "tuner/record_json.h"
#include "tuner/record_store_schema.h"

namespace tunefarm::tuner {
namespace {

// synchronous=FULL: in WAL mode NORMAL already survives a killed process, but a power cut or OS
// crash may drop the last commits. A record is acknowledged to a worker once stored, so it must
// survive those too; one fsync per commit is cheap next to a measurement (batches share one).
constexpr std::string_view kPragmas =
    "PRAGMA journal_mode=WAL; PRAGMA synchronous=FULL; PRAGMA foreign_keys=ON;";

#define TF_RETURN_IF_ERROR(expr)              \
  do {                                        \
    if (absl::Status _s = (expr); !_s.ok()) { \
      return _s;                              \
    }                                         \
  } while (0)

// The record's columns start at `c` (1 when the row id comes first).
absl::StatusOr<Record> ReadRow(const SqliteStatement& stmt, int c = 0) {
  Record r;
  r.workload_key = stmt.ColumnText(c + 0);
  r.target = stmt.ColumnText(c + 1);
  r.device_key = stmt.ColumnText(c + 2);
  r.config_json = stmt.ColumnText(c + 3);
  const std::string repeats_json = stmt.ColumnText(c + 4);
  // A flat array of numbers: anything nested is corrupt, and is never parsed into a deep tree.
  nlohmann::json repeats =
      runtime::JsonNestingWithin(repeats_json, 1)
          ? nlohmann::json::parse(repeats_json, nullptr, /*allow_exceptions=*/false)
          : nlohmann::json(nlohmann::json::value_t::discarded);
  if (!repeats.is_array()) return absl::DataLossError("record with corrupt repeat_seconds_json");
  for (const auto& t : repeats) {
    if (!t.is_number()) return absl::DataLossError("record with a non-numeric repeat time");
    r.repeat_seconds.push_back(t.get<double>());
  }
  absl::StatusOr<ErrorKind> kind = ParseErrorKind(stmt.ColumnText(c + 5));
  if (!kind.ok()) return absl::DataLossError(kind.status().message());
  r.error_kind = *kind;
  r.error_message = stmt.ColumnText(c + 6);
  r.build_seconds = stmt.ColumnDouble(c + 7);
  r.measured_by = stmt.ColumnText(c + 8);
  r.timestamp_ms = stmt.ColumnInt(c + 9);
  r.tunefarm_version = stmt.ColumnText(c + 10);
  r.job_id = stmt.ColumnText(c + 11);
  r.built_by = stmt.ColumnText(c + 12);
  const int64_t cache_flush = stmt.ColumnInt(c + 13);
  if (cache_flush < 0 || cache_flush > static_cast<int>(CacheFlush::kWeights)) {
    return absl::DataLossError(absl::StrCat("record with an unknown cache_flush ", cache_flush));
  }
  r.cache_flush = static_cast<CacheFlush>(cache_flush);
  r.canary_ratio = stmt.ColumnDouble(c + 14);
  r.noisy = stmt.ColumnInt(c + 15) != 0;
  r.emulated = stmt.ColumnInt(c + 16) != 0;
  return r;
}

}  // namespace

std::string CacheFlushFilter(CacheFlush cache_flush) {
  return absl::StrCat(" AND cache_flush = ", static_cast<int>(cache_flush));
}

std::string RealBeforeEmulatedFilter() {
  return " AND (emulated = 0 OR NOT EXISTS (SELECT 1 FROM records AS real WHERE "
         "real.workload_key = records.workload_key AND real.target = records.target AND "
         "real.device_key = records.device_key AND real.cache_flush = records.cache_flush AND "
         "real.error_kind = 'ok' AND real.emulated = 0))";
}

absl::StatusOr<std::unique_ptr<RecordStore>> RecordStore::Open(const std::string& path,
                                                               RecordStoreOptions options) {
  absl::StatusOr<SqliteDb> db = SqliteDb::Open(path);
  if (!db.ok()) return db.status();
  // The busy timeout goes first: switching to WAL or migrating may wait on another connection.
  TF_RETURN_IF_ERROR(db->Exec(absl::StrCat("PRAGMA busy_timeout=", options.busy_timeout_ms)));
  TF_RETURN_IF_ERROR(db->Exec(kPragmas));
  absl::StatusOr<std::string> mode = db->QueryText("PRAGMA journal_mode");
  if (!mode.ok()) return mode.status();
  if (*mode != "wal") {
    return absl::FailedPreconditionError(
        absl::StrCat("record database '", path, "' cannot use WAL mode (got '", *mode, "')"));
  }
  TF_RETURN_IF_ERROR(MigrateSchema(*db, LatestSchemaVersion()));
  return std::unique_ptr<RecordStore>(new RecordStore(*std::move(db)));
}

absl::Status RecordStore::InsertOne(const Record& r) {
  // Every workload a record names gets a row; its FLOP count comes later from PutWorkload.
  // This runs before the record insert so that LastInsertRowId is the record's id.
  absl::StatusOr<SqliteStatement> workload =
      db_.Prepare("INSERT OR IGNORE INTO workloads (key, flops) VALUES (?, NULL)");
  if (!workload.ok()) return workload.status();
  TF_RETURN_IF_ERROR(workload->BindText(1, r.workload_key));
  TF_RETURN_IF_ERROR(workload->Run());
  return InsertRecordRow(r, "records");
}

absl::Status RecordStore::InsertRecordRow(const Record& r, std::string_view table) {
  absl::StatusOr<std::string> config = CanonicalConfigJson(r.config_json);
  if (!config.ok()) return config.status();
  if (r.workload_key.empty()) return absl::InvalidArgumentError("record without a workload key");
  absl::StatusOr<SqliteStatement> stmt =
      db_.Prepare(absl::StrCat("INSERT INTO ", std::string(table), " (", kRecordColumns,
                               ", median_seconds) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)"));
  if (!stmt.ok()) return stmt.status();
  int i = 1;
  for (const std::string* text :
       {&r.workload_key, &r.target, &r.device_key, &std::as_const(*config)}) {
    TF_RETURN_IF_ERROR(stmt->BindText(i++, *text));
  }
  TF_RETURN_IF_ERROR(stmt->BindText(i++, nlohmann::json(r.repeat_seconds).dump()));
  TF_RETURN_IF_ERROR(stmt->BindText(i++, ErrorKindName(r.error_kind)));
  TF_RETURN_IF_ERROR(stmt->BindText(i++, r.error_message));
  TF_RETURN_IF_ERROR(stmt->BindDouble(i++, r.build_seconds));
  TF_RETURN_IF_ERROR(stmt->BindText(i++, r.measured_by));
  TF_RETURN_IF_ERROR(stmt->BindInt(i++, r.timestamp_ms));
  TF_RETURN_IF_ERROR(stmt->BindText(i++, r.tunefarm_version));
  TF_RETURN_IF_ERROR(stmt->BindText(i++, r.job_id));
  TF_RETURN_IF_ERROR(stmt->BindText(i++, r.built_by));
  TF_RETURN_IF_ERROR(stmt->BindInt(i++, static_cast<int>(r.cache_flush)));
  TF_RETURN_IF_ERROR(stmt->BindDouble(i++, r.canary_ratio));
  TF_RETURN_IF_ERROR(stmt->BindInt(i++, r.noisy ? 1 : 0));
  TF_RETURN_IF_ERROR(stmt->BindInt(i++, r.emulated ? 1 : 0));
  std::optional<double> median = MedianSeconds(r.repeat_seconds);
  TF_RETURN_IF_ERROR(median ? stmt->BindDouble(i, *median) : stmt->BindNull(i));
  return stmt->Run();
}

absl::StatusOr<int64_t> RecordStore::Insert(const Record& record) {
  absl::StatusOr<SqliteTransaction> txn = SqliteTransaction::Begin(db_);
  if (!txn.ok()) return txn.status();
  TF_RETURN_IF_ERROR(InsertOne(record));
  int64_t id = db_.LastInsertRowId();
  TF_RETURN_IF_ERROR(txn->Commit());
  return id;
}

absl::Status RecordStore::InsertBatch(const std::vector<Record>& records) {
  absl::StatusOr<SqliteTransaction> txn = SqliteTransaction::Begin(db_);
  if (!txn.ok()) return txn.status();
  for (size_t i = 0; i < records.size(); ++i) {
    if (absl::Status s = InsertOne(records[i]); !s.ok()) {
      return absl::Status(s.code(), absl::StrCat("record ", i, " of batch: ", s.message()));
    }
  }
  return txn->Commit();
}

absl::Status RecordStore::PutWorkload(std::string_view key, double flops) {
  absl::StatusOr<SqliteStatement> stmt = db_.Prepare(
      "INSERT INTO workloads (key, flops) VALUES (?, ?) "
      "ON CONFLICT(key) DO UPDATE SET flops = excluded.flops");
  if (!stmt.ok()) return stmt.status();
  TF_RETURN_IF_ERROR(stmt->BindText(1, key));
  TF_RETURN_IF_ERROR(stmt->BindDouble(2, flops));
  return stmt->Run();
}

absl::StatusOr<std::optional<double>> RecordStore::WorkloadFlops(std::string_view key) {
  absl::StatusOr<SqliteStatement> stmt = db_.Prepare("SELECT flops FROM workloads WHERE key = ?");
  if (!stmt.ok()) return stmt.status();
  TF_RETURN_IF_ERROR(stmt->BindText(1, key));
  absl::StatusOr<bool> row = stmt->Step();
  if (!row.ok()) return row.status();
  if (!*row || stmt->ColumnIsNull(0)) return std::optional<double>();
  return std::optional<double>(stmt->ColumnDouble(0));
}

absl::StatusOr<std::vector<Record>> RecordStore::QueryRecords(
    std::string_view where_sql, const std::vector<std::string>& params) {
  absl::StatusOr<SqliteStatement> stmt = db_.Prepare(
      absl::StrCat("SELECT ", kRecordColumns, " FROM records ", std::string(where_sql)));
  if (!stmt.ok()) return stmt.status();
  for (size_t i = 0; i < params.size(); ++i) {
    TF_RETURN_IF_ERROR(stmt->BindText(static_cast<int>(i + 1), params[i]));
  }
  std::vector<Record> out;
  while (true) {
    absl::StatusOr<bool> row = stmt->Step();
    if (!row.ok()) return row.status();
    if (!*row) return out;
    absl::StatusOr<Record> record = ReadRow(*stmt);
    if (!record.ok()) return record.status();
    out.push_back(*std::move(record));
  }
}

absl::StatusOr<std::vector<StoredRecord>> RecordStore::QueryStoredRecords(
    std::string_view where_sql, const std::vector<std::string>& params) {
  absl::StatusOr<SqliteStatement> stmt = db_.Prepare(
      absl::StrCat("SELECT id, ", kRecordColumns, " FROM records ", std::string(where_sql)));
  if (!stmt.ok()) return stmt.status();
  for (size_t i = 0; i < params.size(); ++i) {
    TF_RETURN_IF_ERROR(stmt->BindText(static_cast<int>(i + 1), params[i]));
  }
  std::vector<StoredRecord> out;
  while (true) {
    absl::StatusOr<bool> row = stmt->Step();
    if (!row.ok()) return row.status();
    if (!*row) return out;
    absl::StatusOr<Record> record = ReadRow(*stmt, 1);
    if (!record.ok()) return record.status();
    out.push_back(StoredRecord{stmt->ColumnInt(0), *std::move(record)});
  }
}

absl::StatusOr<std::optional<Record>> RecordStore::Best(const BestQuery& q) {
  std::vector<std::string> params = {q.workload_key, q.target, q.device_key};
  std::string where =
      "WHERE workload_key = ? AND target = ? AND device_key = ? AND error_kind = 'ok' "
      "AND median_seconds IS NOT NULL" +
      CacheFlushFilter(q.cache_flush) + RealBeforeEmulatedFilter();
  if (q.tunefarm_version) {
    where += " AND tunefarm_version = ?";
    params.push_back(*q.tunefarm_version);
  }
  where += " ORDER BY median_seconds, id LIMIT 1";
  absl::StatusOr<std::vector<Record>> rows = QueryRecords(where, params);
  if (!rows.ok()) return rows.status();
  if (rows->empty()) return std::optional<Record>();
  return std::optional<Record>(std::move(rows->front()));
}

absl::StatusOr<std::vector<Record>> RecordStore::JobHistory(std::string_view job_id) {
  return QueryRecords("WHERE job_id = ? ORDER BY id", {std::string(job_id)});
}

absl::StatusOr<std::map<ErrorKind, int64_t>> RecordStore::CountByErrorKind() {
  absl::StatusOr<SqliteStatement> stmt =
      db_.Prepare("SELECT error_kind, count(*) FROM records GROUP BY error_kind");
  if (!stmt.ok()) return stmt.status();
  std::map<ErrorKind, int64_t> counts;
  while (true) {
    absl::StatusOr<bool> row = stmt->Step();
    if (!row.ok()) return row.status();
    if (!*row) return counts;
    absl::StatusOr<ErrorKind> kind = ParseErrorKind(stmt->ColumnText(0));
    if (!kind.ok()) return absl::DataLossError(kind.status().message());
    counts[*kind] = stmt->ColumnInt(1);
  }
}

absl::StatusOr<int64_t> RecordStore::RecordCount() {
  return db_.QueryInt("SELECT count(*) FROM records");
}

absl::StatusOr<int> RecordStore::SchemaVersion() {
  absl::StatusOr<int64_t> v = db_.QueryInt("PRAGMA user_version");
  if (!v.ok()) return v.status();
  return static_cast<int>(*v);
}

}  // namespace tunefarm::tuner
