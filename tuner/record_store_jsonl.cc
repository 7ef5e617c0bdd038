// RecordStore's export and import as JSON lines (docs/records.md).
#include <istream>
#include <ostream>
#include <string>

#include "absl/strings/str_cat.h"
#include "spdlog/spdlog.h"
#include "tuner/record_json.h"
#include "tuner/record_store.h"

namespace tunefarm::tuner {

absl::Status RecordStore::ExportJsonLines(std::ostream& out) {
  // One read transaction so that the export is a snapshot even while a tracker appends.
  if (absl::Status s = db_.Exec("BEGIN"); !s.ok()) return s;
  absl::StatusOr<std::vector<Record>> records = QueryRecords("ORDER BY id", {});
  (void)db_.Exec("COMMIT");
  if (!records.ok()) return records.status();
  for (const Record& record : *records) out << RecordToJsonLine(record) << '\n';
  if (!out) return absl::InternalError("writing the exported records failed");
  return absl::OkStatus();
}

absl::StatusOr<int64_t> RecordStore::ImportJsonLines(std::istream& in) {
  absl::StatusOr<SqliteTransaction> txn = SqliteTransaction::Begin(db_);
  if (!txn.ok()) return txn.status();
  std::string line;
  int64_t line_no = 0;
  int64_t imported = 0;
  while (std::getline(in, line)) {
    ++line_no;
    if (line.find_first_not_of(" \t\r") == std::string::npos) continue;
    absl::StatusOr<Record> record = RecordFromJsonLine(line);
    absl::Status status = record.ok() ? InsertOne(*record) : record.status();
    if (!status.ok()) {
      // Returning drops the transaction, which rolls back every line stored so far.
      return absl::InvalidArgumentError(
          absl::StrCat("import line ", line_no, ": ", status.message()));
    }
    ++imported;
  }
  if (in.bad()) return absl::InternalError("reading the records to import failed");
  if (absl::Status s = txn->Commit(); !s.ok()) return s;
  spdlog::info("record store: imported {} records", imported);
  return imported;
}

}  // namespace tunefarm::tuner
