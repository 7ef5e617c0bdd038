// RecordImport: JSON-lines records (docs/records.md) imported in parts, for streams too large to
// hold. Lines are checked and staged as they arrive, in a temporary table of the store's own
// connection (which locks nothing in the database file); StoreNextBatch then moves them into the
// records in short transactions, so a long import never holds the write lock that running jobs
// need. A bad line fails the import; an import dropped before it is stored leaves nothing.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

#include "absl/status/status.h"
#include "absl/status/statusor.h"

namespace tunefarm::tuner {

class RecordStore;

class RecordImport {
 public:
  // One line longer than this is refused: no valid record comes near it, and text that never
  // ends a line must not grow a buffer without bound.
  static constexpr size_t kMaxLineBytes = size_t{1} << 20;
  // Records moved per transaction by StoreNextBatch.
  static constexpr int64_t kBatchRecords = 2000;

  // The store must outlive the import; calls on both are serialized by the caller.
  static absl::StatusOr<std::unique_ptr<RecordImport>> Begin(RecordStore& store);
  ~RecordImport();  // drops the staged records that were not stored
  RecordImport(const RecordImport&) = delete;
  RecordImport& operator=(const RecordImport&) = delete;

  // Stages the complete lines of `text` (a part of the stream, cut anywhere); a partial last
  // line waits for the next part. Blank lines are skipped. InvalidArgument names the line.
  absl::Status Add(std::string_view text);
  // The end of the stream: stages a last line that has no newline. Call once, before storing.
  absl::Status Finish();
  // Moves the next batch of staged records into the store, in one transaction; true when all
  // are stored. Between calls, other writers get the database.
  absl::StatusOr<bool> StoreNextBatch();

  int64_t staged() const { return staged_; }
  int64_t stored() const { return stored_; }

 private:
  RecordImport(RecordStore& store, std::string table) : store_(store), table_(std::move(table)) {}
  absl::Status StageLine(std::string_view line);

  RecordStore& store_;
  const std::string table_;  // the staging table, in SQLite's temp schema
  std::string partial_;      // the start of a line whose end has not arrived
  int64_t line_no_ = 0;
  int64_t staged_ = 0;
  int64_t stored_ = 0;
  int64_t next_row_ = 1;  // the first staged row not stored yet
  bool finished_ = false;
};

}  // namespace tunefarm::tuner
