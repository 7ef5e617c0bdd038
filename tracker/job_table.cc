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
    "priority, tuner, updated_ms, model_job_id, model_task";
constexpr char kModelJobColumns[] =
    "id, model_name, target, device_key, spec_json, state, message, trials, created_ms, "
    "updated_ms, measured_seconds, untuned_seconds, measured_by";
constexpr char kUnfinished[] = "WHERE state IN ('queued', 'running', 'paused') ";

// Must wait for the record store's writers (the job engine's, on another connection) rather
// than fail at once.
constexpr int kBusyTimeoutMs = 5000;

absl::StatusOr<farm_api::JobState> ReadState(const tuner::SqliteStatement& stmt, int col,
                                             absl::string_view what, const std::string& id) {
  absl::StatusOr<farm_api::JobState> state = farm_api::ParseJobState(stmt.ColumnText(col));
  if (!state.ok()) {
    return absl::DataLossError(absl::StrCat(what, " ", id, ": ", state.status().message()));
  }
  return state;
}

// Where each row type lives and how a row is read.
template <typename Row>
struct RowTraits;

template <>
struct RowTraits<JobRow> {
  static constexpr const char* kTable = "jobs";
  static constexpr const char* kColumnList = kColumns;
  static absl::StatusOr<JobRow> Read(const tuner::SqliteStatement& stmt);
};

template <>
struct RowTraits<ModelJobRow> {
  static constexpr const char* kTable = "model_jobs";
  static constexpr const char* kColumnList = kModelJobColumns;
  static absl::StatusOr<ModelJobRow> Read(const tuner::SqliteStatement& stmt) {
    ModelJobRow row;
    row.status.id = stmt.ColumnText(0);
    row.status.model_name = stmt.ColumnText(1);
    row.status.target = stmt.ColumnText(2);
    row.status.device_key = stmt.ColumnText(3);
    row.spec_json = stmt.ColumnText(4);
    absl::StatusOr<farm_api::JobState> state = ReadState(stmt, 5, "model job", row.status.id);
    if (!state.ok()) return state.status();
    row.status.state = *state;
    row.status.message = stmt.ColumnText(6);
    row.status.trials = static_cast<int>(stmt.ColumnInt(7));
    row.status.created_ms = stmt.ColumnInt(8);
    row.status.updated_ms = stmt.ColumnInt(9);
    row.status.latency.measured_seconds = stmt.ColumnDouble(10);
    row.status.latency.untuned_seconds = stmt.ColumnDouble(11);
    row.status.latency.measured_by = stmt.ColumnText(12);
    return row;
  }
};

absl::StatusOr<JobRow> RowTraits<JobRow>::Read(const tuner::SqliteStatement& stmt) {
  JobRow row;
  row.status.id = stmt.ColumnText(0);
  row.status.workload_key = stmt.ColumnText(1);
  row.status.target = stmt.ColumnText(2);
  row.status.device_key = stmt.ColumnText(3);
  row.status.created_ms = stmt.ColumnInt(4);
  row.spec_json = stmt.ColumnText(5);
  absl::StatusOr<farm_api::JobState> state = ReadState(stmt, 6, "job", row.status.id);
  if (!state.ok()) return state.status();
  row.status.state = *state;
  row.status.message = stmt.ColumnText(7);
  row.status.trials = static_cast<int>(stmt.ColumnInt(8));
  row.status.priority = static_cast<int>(stmt.ColumnInt(9));
  row.status.tuner = stmt.ColumnText(10);
  row.status.updated_ms = stmt.ColumnInt(11);
  row.status.model_job_id = stmt.ColumnText(12);
  row.status.model_task = static_cast<int>(stmt.ColumnInt(13));
  return row;
}

// After an UPDATE of row `id` of `table`: NotFound when it matched none.
absl::Status ChangedARow(tuner::SqliteDb& db, absl::string_view table, const std::string& id) {
  absl::StatusOr<int64_t> changed = db.QueryInt("SELECT changes()");
  if (!changed.ok()) return changed.status();
  if (*changed == 0) {
    return absl::NotFoundError(
        absl::StrCat(table == "model_jobs" ? "no model job " : "no job ", id));
  }
  return absl::OkStatus();
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

absl::Status JobTable::CheckIdFree(const char* table, const std::string& id) {
  absl::StatusOr<tuner::SqliteStatement> q =
      db_.Prepare(absl::StrCat("SELECT COUNT(*) FROM ", table, " WHERE id = ?"));
  if (!q.ok()) return q.status();
  TF_RETURN_IF_ERROR(q->BindText(1, id));
  absl::StatusOr<bool> has = q->Step();
  if (!has.ok()) return has.status();
  if (q->ColumnInt(0) > 0) return absl::AlreadyExistsError(absl::StrCat(id, " exists"));
  return absl::OkStatus();
}

absl::Status JobTable::Insert(const JobRow& row) {
  std::lock_guard<std::mutex> lock(mu_);
  TF_RETURN_IF_ERROR(CheckIdFree("jobs", row.status.id));
  absl::StatusOr<tuner::SqliteStatement> stmt = db_.Prepare(
      absl::StrCat("INSERT INTO jobs (", kColumns, ") VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?)"));
  if (!stmt.ok()) return stmt.status();
  TF_RETURN_IF_ERROR(stmt->BindText(1, row.status.id));
  TF_RETURN_IF_ERROR(stmt->BindText(2, row.status.workload_key));
  TF_RETURN_IF_ERROR(stmt->BindText(3, row.status.target));
  TF_RETURN_IF_ERROR(stmt->BindText(4, row.status.device_key));
  TF_RETURN_IF_ERROR(stmt->BindInt(5, row.status.created_ms));
  TF_RETURN_IF_ERROR(stmt->BindText(6, row.spec_json));
  TF_RETURN_IF_ERROR(stmt->BindText(7, farm_api::JobStateName(row.status.state)));
  TF_RETURN_IF_ERROR(stmt->BindText(8, row.status.message));
  TF_RETURN_IF_ERROR(stmt->BindInt(9, row.status.trials));
  TF_RETURN_IF_ERROR(stmt->BindInt(10, row.status.priority));
  TF_RETURN_IF_ERROR(stmt->BindText(11, row.status.tuner));
  TF_RETURN_IF_ERROR(stmt->BindInt(12, row.status.updated_ms));
  TF_RETURN_IF_ERROR(stmt->BindText(13, row.status.model_job_id));
  TF_RETURN_IF_ERROR(stmt->BindInt(14, row.status.model_task));
  return stmt->Run();
}

absl::Status JobTable::UpdateState(const std::string& id, farm_api::JobState state,
                                   const std::string& message, int64_t updated_ms) {
  return UpdateStateOf("jobs", id, state, message, updated_ms);
}

absl::Status JobTable::UpdateStateOf(const char* table, const std::string& id,
                                     farm_api::JobState state, const std::string& message,
                                     int64_t updated_ms) {
  std::lock_guard<std::mutex> lock(mu_);
  absl::StatusOr<tuner::SqliteStatement> stmt = db_.Prepare(
      absl::StrCat("UPDATE ", table, " SET state = ?, message = ?, updated_ms = ? WHERE id = ?"));
  if (!stmt.ok()) return stmt.status();
  TF_RETURN_IF_ERROR(stmt->BindText(1, farm_api::JobStateName(state)));
  TF_RETURN_IF_ERROR(stmt->BindText(2, message));
  TF_RETURN_IF_ERROR(stmt->BindInt(3, updated_ms));
  TF_RETURN_IF_ERROR(stmt->BindText(4, id));
  TF_RETURN_IF_ERROR(stmt->Run());
  return ChangedARow(db_, table, id);
}

absl::Status JobTable::Reopen(const std::string& id, int trials, const std::string& spec_json,
                              int64_t updated_ms) {
  std::lock_guard<std::mutex> lock(mu_);
  absl::StatusOr<tuner::SqliteStatement> stmt = db_.Prepare(
      "UPDATE jobs SET trials = ?, spec_json = ?, state = 'running', message = '', "
      "updated_ms = ? WHERE id = ?");
  if (!stmt.ok()) return stmt.status();
  TF_RETURN_IF_ERROR(stmt->BindInt(1, trials));
  TF_RETURN_IF_ERROR(stmt->BindText(2, spec_json));
  TF_RETURN_IF_ERROR(stmt->BindInt(3, updated_ms));
  TF_RETURN_IF_ERROR(stmt->BindText(4, id));
  TF_RETURN_IF_ERROR(stmt->Run());
  return ChangedARow(db_, "jobs", id);
}

absl::StatusOr<std::vector<JobRow>> JobTable::ListOfModelJob(const std::string& model_job_id) {
  return Query<JobRow>("WHERE model_job_id = ? ORDER BY created_ms ASC, rowid ASC", {model_job_id});
}

absl::StatusOr<std::vector<JobRow>> JobTable::LoadUnfinished() {
  return Query<JobRow>(absl::StrCat(kUnfinished, "ORDER BY created_ms ASC, rowid ASC"), {});
}

namespace {

std::string ListClause(bool include_finished, int limit) {
  std::string sql = include_finished ? "" : kUnfinished;
  absl::StrAppend(&sql, "ORDER BY created_ms DESC, rowid DESC");
  if (limit > 0) absl::StrAppend(&sql, " LIMIT ", limit);
  return sql;
}

}  // namespace

absl::StatusOr<std::vector<JobRow>> JobTable::List(bool include_finished, int limit) {
  return Query<JobRow>(ListClause(include_finished, limit), {});
}

absl::StatusOr<JobRow> JobTable::Get(const std::string& id) {
  absl::StatusOr<std::vector<JobRow>> rows = Query<JobRow>("WHERE id = ?", {id});
  if (!rows.ok()) return rows.status();
  if (rows->empty()) return absl::NotFoundError(absl::StrCat("no job ", id));
  return rows->front();
}

absl::Status JobTable::InsertModelJob(const ModelJobRow& row) {
  std::lock_guard<std::mutex> lock(mu_);
  TF_RETURN_IF_ERROR(CheckIdFree("model_jobs", row.status.id));
  absl::StatusOr<tuner::SqliteStatement> stmt = db_.Prepare(absl::StrCat(
      "INSERT INTO model_jobs (", kModelJobColumns, ") VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?)"));
  if (!stmt.ok()) return stmt.status();
  TF_RETURN_IF_ERROR(stmt->BindText(1, row.status.id));
  TF_RETURN_IF_ERROR(stmt->BindText(2, row.status.model_name));
  TF_RETURN_IF_ERROR(stmt->BindText(3, row.status.target));
  TF_RETURN_IF_ERROR(stmt->BindText(4, row.status.device_key));
  TF_RETURN_IF_ERROR(stmt->BindText(5, row.spec_json));
  TF_RETURN_IF_ERROR(stmt->BindText(6, farm_api::JobStateName(row.status.state)));
  TF_RETURN_IF_ERROR(stmt->BindText(7, row.status.message));
  TF_RETURN_IF_ERROR(stmt->BindInt(8, row.status.trials));
  TF_RETURN_IF_ERROR(stmt->BindInt(9, row.status.created_ms));
  TF_RETURN_IF_ERROR(stmt->BindInt(10, row.status.updated_ms));
  TF_RETURN_IF_ERROR(stmt->BindDouble(11, row.status.latency.measured_seconds));
  TF_RETURN_IF_ERROR(stmt->BindDouble(12, row.status.latency.untuned_seconds));
  TF_RETURN_IF_ERROR(stmt->BindText(13, row.status.latency.measured_by));
  return stmt->Run();
}

absl::Status JobTable::UpdateModelJobState(const std::string& id, farm_api::JobState state,
                                           const std::string& message, int64_t updated_ms) {
  return UpdateStateOf("model_jobs", id, state, message, updated_ms);
}

absl::Status JobTable::SetModelJobLatency(const std::string& id,
                                          const farm_api::ModelLatency& latency,
                                          int64_t updated_ms) {
  std::lock_guard<std::mutex> lock(mu_);
  absl::StatusOr<tuner::SqliteStatement> stmt = db_.Prepare(
      "UPDATE model_jobs SET measured_seconds = ?, untuned_seconds = ?, measured_by = ?, "
      "updated_ms = ? WHERE id = ?");
  if (!stmt.ok()) return stmt.status();
  TF_RETURN_IF_ERROR(stmt->BindDouble(1, latency.measured_seconds));
  TF_RETURN_IF_ERROR(stmt->BindDouble(2, latency.untuned_seconds));
  TF_RETURN_IF_ERROR(stmt->BindText(3, latency.measured_by));
  TF_RETURN_IF_ERROR(stmt->BindInt(4, updated_ms));
  TF_RETURN_IF_ERROR(stmt->BindText(5, id));
  TF_RETURN_IF_ERROR(stmt->Run());
  return ChangedARow(db_, "model_jobs", id);
}

absl::StatusOr<std::vector<ModelJobRow>> JobTable::LoadUnfinishedModelJobs() {
  return Query<ModelJobRow>(absl::StrCat(kUnfinished, "ORDER BY created_ms ASC, rowid ASC"), {});
}

absl::StatusOr<std::vector<ModelJobRow>> JobTable::ListModelJobs(bool include_finished, int limit) {
  return Query<ModelJobRow>(ListClause(include_finished, limit), {});
}

absl::StatusOr<ModelJobRow> JobTable::GetModelJob(const std::string& id) {
  absl::StatusOr<std::vector<ModelJobRow>> rows = Query<ModelJobRow>("WHERE id = ?", {id});
  if (!rows.ok()) return rows.status();
  if (rows->empty()) return absl::NotFoundError(absl::StrCat("no model job ", id));
  return rows->front();
}

template <typename Row>
absl::StatusOr<std::vector<Row>> JobTable::Query(const std::string& where_and_order,
                                                 const std::vector<std::string>& params) {
  std::lock_guard<std::mutex> lock(mu_);
  absl::StatusOr<tuner::SqliteStatement> stmt =
      db_.Prepare(absl::StrCat("SELECT ", RowTraits<Row>::kColumnList, " FROM ",
                               RowTraits<Row>::kTable, " ", where_and_order));
  if (!stmt.ok()) return stmt.status();
  for (size_t i = 0; i < params.size(); ++i) {
    TF_RETURN_IF_ERROR(stmt->BindText(static_cast<int>(i + 1), params[i]));
  }
  std::vector<Row> rows;
  for (;;) {
    absl::StatusOr<bool> has = stmt->Step();
    if (!has.ok()) return has.status();
    if (!*has) break;
    absl::StatusOr<Row> row = RowTraits<Row>::Read(*stmt);
    if (!row.ok()) return row.status();
    rows.push_back(*std::move(row));
  }
  return rows;
}

}  // namespace tunefarm::tracker
