#include "tuner/record_import.h"

#include <algorithm>
#include <atomic>

#include "absl/strings/str_cat.h"
#include "spdlog/spdlog.h"
#include "tuner/record_json.h"
#include "tuner/record_store.h"

namespace tunefarm::tuner {
namespace {

// Staging tables are per import, so two imports on one connection never share one.
std::atomic<int64_t> next_import_id{1};

}  // namespace

absl::StatusOr<std::unique_ptr<RecordImport>> RecordImport::Begin(RecordStore& store) {
  const std::string table = absl::StrCat("record_import_", next_import_id++);
  // The records' own columns, without their constraints; temp tables live beside the
  // connection, not in the database file.
  if (absl::Status s = store.db_.Exec(absl::StrCat("CREATE TEMP TABLE ", table, " AS SELECT ",
                                                   RecordStore::kRecordColumns,
                                                   ", median_seconds FROM records WHERE 0"));
      !s.ok()) {
    return s;
  }
  return std::unique_ptr<RecordImport>(new RecordImport(store, table));
}

RecordImport::~RecordImport() {
  if (absl::Status s = store_.db_.Exec(absl::StrCat("DROP TABLE IF EXISTS temp.", table_));
      !s.ok()) {
    spdlog::warn("record import: dropping its staging table failed: {}", std::string(s.message()));
  }
}

absl::Status RecordImport::StageLine(std::string_view line) {
  ++line_no_;
  if (line.find_first_not_of(" \t\r") == std::string_view::npos) return absl::OkStatus();
  absl::StatusOr<Record> record = RecordFromJsonLine(line);
  absl::Status status =
      record.ok() ? store_.InsertRecordRow(*record, "temp." + table_) : record.status();
  if (!status.ok()) {
    return absl::InvalidArgumentError(
        absl::StrCat("import line ", line_no_, ": ", status.message()));
  }
  ++staged_;
  return absl::OkStatus();
}

absl::Status RecordImport::Add(std::string_view text) {
  if (finished_) return absl::FailedPreconditionError("record import: text after its end");
  // One transaction per part: staging row by row without one is several times slower. It
  // touches only the temp schema, so it takes no lock on the database file.
  if (absl::Status s = store_.db_.Exec("BEGIN"); !s.ok()) return s;
  absl::Status status;
  size_t pos = 0;
  while (status.ok()) {
    const size_t nl = text.find('\n', pos);
    if (nl == std::string_view::npos) break;
    std::string_view piece = text.substr(pos, nl - pos);
    if (partial_.empty()) {
      status = StageLine(piece);
    } else {
      partial_.append(piece);
      status = StageLine(partial_);
      partial_.clear();
    }
    pos = nl + 1;
  }
  if (status.ok()) {
    std::string_view rest = text.substr(std::min(pos, text.size()));
    if (partial_.size() + rest.size() > kMaxLineBytes) {
      status = absl::InvalidArgumentError(
          absl::StrCat("import line ", line_no_ + 1, ": longer than ", kMaxLineBytes, " bytes"));
    } else {
      partial_.append(rest);
    }
  }
  absl::Status end = store_.db_.Exec(status.ok() ? "COMMIT" : "ROLLBACK");
  return status.ok() ? end : status;
}

absl::Status RecordImport::Finish() {
  if (finished_) return absl::OkStatus();
  absl::Status status = partial_.empty() ? absl::OkStatus() : StageLine(partial_);
  partial_.clear();
  finished_ = true;
  return status;
}

absl::StatusOr<bool> RecordImport::StoreNextBatch() {
  if (!finished_) return absl::FailedPreconditionError("record import: stored before its end");
  if (stored_ == staged_) return true;
  // Staged rows have the rowids 1..staged_, in line order.
  const int64_t first = next_row_;
  const int64_t last = std::min(staged_, first + kBatchRecords - 1);
  const std::string rows =
      absl::StrCat(" FROM temp.", table_, " WHERE rowid BETWEEN ", first, " AND ", last);
  absl::StatusOr<SqliteTransaction> txn = SqliteTransaction::Begin(store_.db_);
  if (!txn.ok()) return txn.status();
  for (const std::string& sql :
       {absl::StrCat("INSERT OR IGNORE INTO workloads (key, flops) SELECT DISTINCT workload_key, "
                     "NULL",
                     rows),
        absl::StrCat("INSERT INTO records (", RecordStore::kRecordColumns,
                     ", median_seconds) SELECT ", RecordStore::kRecordColumns, ", median_seconds",
                     rows, " ORDER BY rowid")}) {
    if (absl::Status s = store_.db_.Exec(sql); !s.ok()) return s;
  }
  if (absl::Status s = txn->Commit(); !s.ok()) return s;
  next_row_ = last + 1;
  stored_ += last - first + 1;
  if (stored_ == staged_) spdlog::info("record store: imported {} records", stored_);
  return stored_ == staged_;
}

}  // namespace tunefarm::tuner
