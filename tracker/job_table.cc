#include "tracker/job_table.h"

#include "absl/strings/str_cat.h"
#include "tuner/record_store.h"

namespace tunefarm::tracker {
namespace {

#define TF_RETURN_IF_ERROR(expr)              \
  do {                                        \
    if (absl::Status _s = (expr); !_s.ok()) { \
      return _s;                              \
    }                                         \
  } while (0)

constexpr char kColumns[] =
    "id, workload_key, target, device_key, created_ms, spec_json, state, message, trials, "
    "priority, tuner, updated_ms";

// Must wait for the record store's writers (the job engine's, on another connection) rather
// than fail at once.
constexpr int kBusyTimeoutMs = 5000;

absl::StatusOr<JobRow> ReadRow(const tuner::SqliteStatement& stmt) {
  JobRow row;
  row.id = stmt.ColumnText(0);
  row.workload_key = stmt.ColumnText(1);
  row.target = stmt.ColumnText(2);
  row.device_key = stmt.ColumnText(3);
  row.created_ms = stmt.ColumnInt(4);
  row.spec_json = stmt.ColumnText(5);
  absl::StatusOr<JobState> state = ParseJobState(stmt.ColumnText(6));
  if (!state.ok()) {
    return absl::DataLossError(absl::StrCat("job ", row.id, ": ", state.status().message()));
  }
  row.state = *state;
  row.message = stmt.ColumnText(7);
  row.trials = static_cast<int>(stmt.ColumnInt(8));
  row.priority = static_cast<int>(stmt.ColumnInt(9));
  row.tuner = stmt.ColumnText(10);
  row.updated_ms = stmt.ColumnInt(11);
  return row;
}

}  // namespace

absl::StatusOr<std::unique_ptr<JobTable>> JobTable::Open(const std::string& db_path) {
  // The record store owns the schema: opening it creates or migrates the database.
  {
    absl::StatusOr<std::unique_ptr<tuner::RecordStore>> store = tuner::RecordStore::Open(db_path);
    if (!store.ok()) return store.status();
  }
  absl::StatusOr<tuner::SqliteDb> db = tuner::SqliteDb::Open(db_path);
  if (!db.ok()) return db.status();
  TF_RETURN_IF_ERROR(db->Exec(absl::StrCat("PRAGMA busy_timeout=", kBusyTimeoutMs)));
  // As for records: a job acknowledged to a client must survive a power cut.
  TF_RETURN_IF_ERROR(db->Exec("PRAGMA synchronous=FULL"));
  return std::unique_ptr<JobTable>(new JobTable(*std::move(db)));
}

absl::Status JobTable::Insert(const JobRow& row) {
  std::lock_guard<std::mutex> lock(mu_);
  absl::StatusOr<int64_t> taken = [&]() -> absl::StatusOr<int64_t> {
    absl::StatusOr<tuner::SqliteStatement> q =
        db_.Prepare("SELECT COUNT(*) FROM jobs WHERE id = ?");
    if (!q.ok()) return q.status();
    TF_RETURN_IF_ERROR(q->BindText(1, row.id));
    absl::StatusOr<bool> has = q->Step();
    if (!has.ok()) return has.status();
    return q->ColumnInt(0);
  }();
  if (!taken.ok()) return taken.status();
  if (*taken > 0) return absl::AlreadyExistsError(absl::StrCat("job ", row.id, " exists"));
  absl::StatusOr<tuner::SqliteStatement> stmt = db_.Prepare(
      absl::StrCat("INSERT INTO jobs (", kColumns, ") VALUES (?,?,?,?,?,?,?,?,?,?,?,?)"));
  if (!stmt.ok()) return stmt.status();
  TF_RETURN_IF_ERROR(stmt->BindText(1, row.id));
  TF_RETURN_IF_ERROR(stmt->BindText(2, row.workload_key));
  TF_RETURN_IF_ERROR(stmt->BindText(3, row.target));
  TF_RETURN_IF_ERROR(stmt->BindText(4, row.device_key));
  TF_RETURN_IF_ERROR(stmt->BindInt(5, row.created_ms));
  TF_RETURN_IF_ERROR(stmt->BindText(6, row.spec_json));
  TF_RETURN_IF_ERROR(stmt->BindText(7, JobStateName(row.state)));
  TF_RETURN_IF_ERROR(stmt->BindText(8, row.message));
  TF_RETURN_IF_ERROR(stmt->BindInt(9, row.trials));
  TF_RETURN_IF_ERROR(stmt->BindInt(10, row.priority));
  TF_RETURN_IF_ERROR(stmt->BindText(11, row.tuner));
  TF_RETURN_IF_ERROR(stmt->BindInt(12, row.updated_ms));
  return stmt->Run();
}

absl::Status JobTable::UpdateState(const std::string& id, JobState state,
                                   const std::string& message, int64_t updated_ms) {
  std::lock_guard<std::mutex> lock(mu_);
  absl::StatusOr<tuner::SqliteStatement> stmt =
      db_.Prepare("UPDATE jobs SET state = ?, message = ?, updated_ms = ? WHERE id = ?");
  if (!stmt.ok()) return stmt.status();
  TF_RETURN_IF_ERROR(stmt->BindText(1, JobStateName(state)));
  TF_RETURN_IF_ERROR(stmt->BindText(2, message));
  TF_RETURN_IF_ERROR(stmt->BindInt(3, updated_ms));
  TF_RETURN_IF_ERROR(stmt->BindText(4, id));
  TF_RETURN_IF_ERROR(stmt->Run());
  absl::StatusOr<int64_t> changed = db_.QueryInt("SELECT changes()");
  if (!changed.ok()) return changed.status();
  if (*changed == 0) return absl::NotFoundError(absl::StrCat("no job ", id));
  return absl::OkStatus();
}

absl::StatusOr<std::vector<JobRow>> JobTable::LoadUnfinished() {
  return Query("WHERE state IN ('queued', 'running') ORDER BY created_ms ASC, rowid ASC", {});
}

absl::StatusOr<std::vector<JobRow>> JobTable::List(bool include_finished, int limit) {
  std::string sql = include_finished ? "" : "WHERE state IN ('queued', 'running') ";
  absl::StrAppend(&sql, "ORDER BY created_ms DESC, rowid DESC");
  if (limit > 0) absl::StrAppend(&sql, " LIMIT ", limit);
  return Query(sql, {});
}

absl::StatusOr<JobRow> JobTable::Get(const std::string& id) {
  absl::StatusOr<std::vector<JobRow>> rows = Query("WHERE id = ?", {id});
  if (!rows.ok()) return rows.status();
  if (rows->empty()) return absl::NotFoundError(absl::StrCat("no job ", id));
  return rows->front();
}

absl::StatusOr<std::vector<JobRow>> JobTable::Query(const std::string& where_and_order,
                                                    const std::vector<std::string>& params) {
  std::lock_guard<std::mutex> lock(mu_);
  absl::StatusOr<tuner::SqliteStatement> stmt =
      db_.Prepare(absl::StrCat("SELECT ", kColumns, " FROM jobs ", where_and_order));
  if (!stmt.ok()) return stmt.status();
  for (size_t i = 0; i < params.size(); ++i) {
    TF_RETURN_IF_ERROR(stmt->BindText(static_cast<int>(i + 1), params[i]));
  }
  std::vector<JobRow> rows;
  for (;;) {
    absl::StatusOr<bool> has = stmt->Step();
    if (!has.ok()) return has.status();
    if (!*has) break;
    absl::StatusOr<JobRow> row = ReadRow(*stmt);
    if (!row.ok()) return row.status();
    rows.push_back(*std::move(row));
  }
  return rows;
}

}  // namespace tunefarm::tracker
