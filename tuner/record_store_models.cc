// RecordStore's cost-model table: a model is saved next to the records it was trained on, so a
// later run (or another tracker) starts from it instead of from nothing.
#include <chrono>
#include <string>

#include "runtime/clock.h"
#include "tuner/record_store.h"

namespace tunefarm::tuner {

absl::Status RecordStore::PutModel(std::string_view scope, std::string_view bytes,
                                   int64_t training_rows) {
  absl::StatusOr<SqliteStatement> stmt = db_.Prepare(
      "INSERT INTO cost_models (scope, model, training_rows, updated_ms) VALUES (?, ?, ?, ?) "
      "ON CONFLICT(scope) DO UPDATE SET model = excluded.model, "
      "training_rows = excluded.training_rows, updated_ms = excluded.updated_ms");
  if (!stmt.ok()) return stmt.status();
  const int64_t now_ms = runtime::SystemClock().NowMs();
  for (absl::Status s : {stmt->BindText(1, scope), stmt->BindBlob(2, bytes),
                         stmt->BindInt(3, training_rows), stmt->BindInt(4, now_ms)}) {
    if (!s.ok()) return s;
  }
  return stmt->Run();
}

absl::StatusOr<std::optional<std::string>> RecordStore::GetModel(std::string_view scope) {
  absl::StatusOr<SqliteStatement> stmt =
      db_.Prepare("SELECT model FROM cost_models WHERE scope = ?");
  if (!stmt.ok()) return stmt.status();
  if (absl::Status s = stmt->BindText(1, scope); !s.ok()) return s;
  absl::StatusOr<bool> row = stmt->Step();
  if (!row.ok()) return row.status();
  if (!*row) return std::optional<std::string>();
  return std::optional<std::string>(stmt->ColumnBlob(0));
}

}  // namespace tunefarm::tuner
