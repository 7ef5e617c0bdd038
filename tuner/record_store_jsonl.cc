// RecordStore's export and import as JSON lines (docs/records.md).
#include <istream>
#include <ostream>
#include <string>

#include "absl/strings/str_cat.h"
#include "tuner/record_import.h"
#include "tuner/record_json.h"
#include "tuner/record_store.h"

namespace tunefarm::tuner {
namespace {

constexpr int64_t kExportPageRecords = 1000;
constexpr size_t kImportReadBytes = size_t{1} << 16;

}  // namespace

absl::StatusOr<int64_t> RecordStore::LastRecordId() {
  return db_.QueryInt("SELECT COALESCE(MAX(id), 0) FROM records");
}

absl::StatusOr<int64_t> RecordStore::ExportPage(int64_t after_id, int64_t up_to_id, int64_t limit,
                                                std::string* out) {
  absl::StatusOr<std::vector<StoredRecord>> page = QueryStoredRecords(
      absl::StrCat("WHERE id > ", after_id, " AND id <= ", up_to_id, " ORDER BY id LIMIT ", limit),
      {});
  if (!page.ok()) return page.status();
  for (const StoredRecord& r : *page) {
    absl::StrAppend(out, RecordToJsonLine(r.record), "\n");
    after_id = r.id;
  }
  return after_id;
}

absl::Status RecordStore::ExportJsonLines(std::ostream& out) {
  absl::StatusOr<int64_t> last = LastRecordId();
  if (!last.ok()) return last.status();
  int64_t after = 0;
  while (after < *last) {
    std::string text;
    absl::StatusOr<int64_t> next = ExportPage(after, *last, kExportPageRecords, &text);
    if (!next.ok()) return next.status();
    if (*next == after) break;  // no rows left below `last`
    after = *next;
    out << text;
    if (!out) return absl::InternalError("writing the exported records failed");
  }
  return absl::OkStatus();
}

absl::StatusOr<int64_t> RecordStore::ImportJsonLines(std::istream& in) {
  absl::StatusOr<std::unique_ptr<RecordImport>> import = RecordImport::Begin(*this);
  if (!import.ok()) return import.status();
  std::string part(kImportReadBytes, '\0');
  while (in) {
    in.read(part.data(), static_cast<std::streamsize>(part.size()));
    const std::streamsize got = in.gcount();
    if (got <= 0) break;
    if (absl::Status s = (*import)->Add(std::string_view(part.data(), static_cast<size_t>(got)));
        !s.ok()) {
      return s;
    }
  }
  if (in.bad()) return absl::InternalError("reading the records to import failed");
  if (absl::Status s = (*import)->Finish(); !s.ok()) return s;
  for (;;) {
    absl::StatusOr<bool> done = (*import)->StoreNextBatch();
    if (!done.ok()) return done.status();
    if (*done) return (*import)->stored();
  }
}

}  // namespace tunefarm::tuner
