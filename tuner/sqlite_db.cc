#include "tuner/sqlite_db.h"

#include <sqlite3.h>
#include <utility>

#include "absl/strings/str_cat.h"

namespace tunefarm::tuner {
namespace {

absl::Status Error(sqlite3* db, int rc, std::string_view what) {
  const char* msg = db != nullptr ? sqlite3_errmsg(db) : sqlite3_errstr(rc);
  std::string text = absl::StrCat("sqlite ", std::string(what), ": ", msg, " (code ", rc, ")");
  if (rc == SQLITE_BUSY || rc == SQLITE_LOCKED) return absl::UnavailableError(text);
  return absl::InternalError(text);
}

}  // namespace

SqliteStatement::SqliteStatement(SqliteStatement&& other) noexcept
    : db_(other.db_), stmt_(std::exchange(other.stmt_, nullptr)) {}

SqliteStatement& SqliteStatement::operator=(SqliteStatement&& other) noexcept {
  if (this != &other) {
    sqlite3_finalize(stmt_);
    db_ = other.db_;
    stmt_ = std::exchange(other.stmt_, nullptr);
  }
  return *this;
}

SqliteStatement::~SqliteStatement() { sqlite3_finalize(stmt_); }

absl::Status SqliteStatement::BindText(int index, std::string_view value) {
  int rc = sqlite3_bind_text(stmt_, index, value.data(), static_cast<int>(value.size()),
                             SQLITE_TRANSIENT);
  return rc == SQLITE_OK ? absl::OkStatus() : Error(db_, rc, "bind");
}

absl::Status SqliteStatement::BindDouble(int index, double value) {
  int rc = sqlite3_bind_double(stmt_, index, value);
  return rc == SQLITE_OK ? absl::OkStatus() : Error(db_, rc, "bind");
}

absl::Status SqliteStatement::BindInt(int index, int64_t value) {
  int rc = sqlite3_bind_int64(stmt_, index, value);
  return rc == SQLITE_OK ? absl::OkStatus() : Error(db_, rc, "bind");
}

absl::Status SqliteStatement::BindNull(int index) {
  int rc = sqlite3_bind_null(stmt_, index);
  return rc == SQLITE_OK ? absl::OkStatus() : Error(db_, rc, "bind");
}

absl::StatusOr<bool> SqliteStatement::Step() {
  int rc = sqlite3_step(stmt_);
  if (rc == SQLITE_ROW) return true;
  if (rc == SQLITE_DONE) return false;
  return Error(db_, rc, "step");
}

absl::Status SqliteStatement::Run() {
  absl::StatusOr<bool> row = Step();
  if (!row.ok()) return row.status();
  return absl::OkStatus();
}

int64_t SqliteStatement::ColumnInt(int col) const { return sqlite3_column_int64(stmt_, col); }

double SqliteStatement::ColumnDouble(int col) const { return sqlite3_column_double(stmt_, col); }

absl::Status SqliteStatement::BindBlob(int index, std::string_view bytes) {
  int rc = sqlite3_bind_blob(stmt_, index, bytes.data(), static_cast<int>(bytes.size()),
                             SQLITE_TRANSIENT);
  return rc == SQLITE_OK ? absl::OkStatus() : Error(db_, rc, "bind");
}

std::string SqliteStatement::ColumnBlob(int col) const {
  const void* bytes = sqlite3_column_blob(stmt_, col);
  if (bytes == nullptr) return "";
  return std::string(static_cast<const char*>(bytes),
                     static_cast<size_t>(sqlite3_column_bytes(stmt_, col)));
}

std::string SqliteStatement::ColumnText(int col) const {
  const unsigned char* text = sqlite3_column_text(stmt_, col);
  if (text == nullptr) return "";
  return std::string(reinterpret_cast<const char*>(text),
                     static_cast<size_t>(sqlite3_column_bytes(stmt_, col)));
}

bool SqliteStatement::ColumnIsNull(int col) const {
  return sqlite3_column_type(stmt_, col) == SQLITE_NULL;
}

void SqliteDb::Closer::operator()(sqlite3* db) const { sqlite3_close_v2(db); }

absl::StatusOr<SqliteDb> SqliteDb::Open(const std::string& path) {
  sqlite3* db = nullptr;
  int rc = sqlite3_open_v2(path.c_str(), &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, nullptr);
  SqliteDb result(db);  // owns the handle even on failure, as sqlite3_open_v2 requires
  if (rc != SQLITE_OK) return Error(db, rc, absl::StrCat("open '", path, "'"));
  return result;
}

absl::Status SqliteDb::Exec(std::string_view sql) {
  std::string text(sql);
  char* err = nullptr;
  int rc = sqlite3_exec(db_.get(), text.c_str(), nullptr, nullptr, &err);
  if (rc == SQLITE_OK) return absl::OkStatus();
  absl::Status status =
      Error(db_.get(), rc, absl::StrCat("exec '", std::string(sql.substr(0, 60)), "'"));
  sqlite3_free(err);
  return status;
}

absl::StatusOr<SqliteStatement> SqliteDb::Prepare(std::string_view sql) {
  sqlite3_stmt* stmt = nullptr;
  int rc = sqlite3_prepare_v2(db_.get(), sql.data(), static_cast<int>(sql.size()), &stmt, nullptr);
  if (rc != SQLITE_OK) {
    sqlite3_finalize(stmt);
    return Error(db_.get(), rc, absl::StrCat("prepare '", std::string(sql.substr(0, 60)), "'"));
  }
  return SqliteStatement(db_.get(), stmt);
}

absl::StatusOr<int64_t> SqliteDb::QueryInt(std::string_view sql) {
  absl::StatusOr<SqliteStatement> stmt = Prepare(sql);
  if (!stmt.ok()) return stmt.status();
  absl::StatusOr<bool> row = stmt->Step();
  if (!row.ok()) return row.status();
  if (!*row) return absl::InternalError(absl::StrCat("no row from '", std::string(sql), "'"));
  return stmt->ColumnInt(0);
}

absl::StatusOr<std::string> SqliteDb::QueryText(std::string_view sql) {
  absl::StatusOr<SqliteStatement> stmt = Prepare(sql);
  if (!stmt.ok()) return stmt.status();
  absl::StatusOr<bool> row = stmt->Step();
  if (!row.ok()) return row.status();
  if (!*row) return absl::InternalError(absl::StrCat("no row from '", std::string(sql), "'"));
  return stmt->ColumnText(0);
}

int64_t SqliteDb::LastInsertRowId() const { return sqlite3_last_insert_rowid(db_.get()); }

absl::StatusOr<SqliteTransaction> SqliteTransaction::Begin(SqliteDb& db) {
  absl::Status status = db.Exec("BEGIN IMMEDIATE");
  if (!status.ok()) return status;
  return SqliteTransaction(&db);
}

SqliteTransaction::SqliteTransaction(SqliteTransaction&& other) noexcept
    : db_(std::exchange(other.db_, nullptr)) {}

SqliteTransaction::~SqliteTransaction() {
  if (db_ != nullptr) (void)db_->Exec("ROLLBACK");
}

absl::Status SqliteTransaction::Commit() {
  absl::Status status = db_->Exec("COMMIT");
  if (status.ok()) db_ = nullptr;
  return status;
}

}  // namespace tunefarm::tuner
