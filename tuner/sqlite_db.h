// SqliteDb: a thin RAII wrapper over one SQLite connection that turns return codes into
// absl::Status, so the record store never handles raw sqlite3 calls. sqlite3.h stays in the .cc.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

#include "absl/status/status.h"
#include "absl/status/statusor.h"

struct sqlite3;
struct sqlite3_stmt;

namespace tunefarm::tuner {

// One prepared statement. Parameters are 1-based, columns 0-based (as in SQLite).
class SqliteStatement {
 public:
  SqliteStatement(sqlite3* db, sqlite3_stmt* stmt) : db_(db), stmt_(stmt) {}
  SqliteStatement(SqliteStatement&& other) noexcept;
  SqliteStatement& operator=(SqliteStatement&& other) noexcept;
  SqliteStatement(const SqliteStatement&) = delete;
  SqliteStatement& operator=(const SqliteStatement&) = delete;
  ~SqliteStatement();

  absl::Status BindText(int index, std::string_view value);
  absl::Status BindDouble(int index, double value);
  absl::Status BindInt(int index, int64_t value);
  absl::Status BindNull(int index);
  absl::Status BindBlob(int index, std::string_view bytes);

  // True when a row is available, false when the statement is done.
  absl::StatusOr<bool> Step();
  // Steps a statement that returns no rows (INSERT/UPDATE) to completion.
  absl::Status Run();

  int64_t ColumnInt(int col) const;
  double ColumnDouble(int col) const;
  std::string ColumnText(int col) const;
  bool ColumnIsNull(int col) const;
  std::string ColumnBlob(int col) const;

 private:
  sqlite3* db_ = nullptr;
  sqlite3_stmt* stmt_ = nullptr;
};

class SqliteDb {
 public:
  // Opens (creating when missing) the database at `path` in read-write mode.
  static absl::StatusOr<SqliteDb> Open(const std::string& path);

  SqliteDb(SqliteDb&&) noexcept = default;
  SqliteDb& operator=(SqliteDb&&) noexcept = default;

  // Runs one or more statements that return no rows.
  absl::Status Exec(std::string_view sql);
  absl::StatusOr<SqliteStatement> Prepare(std::string_view sql);
  // The first column of the first row of `sql`, which must return one.
  absl::StatusOr<int64_t> QueryInt(std::string_view sql);
  absl::StatusOr<std::string> QueryText(std::string_view sql);
  int64_t LastInsertRowId() const;
  sqlite3* raw() const { return db_.get(); }

 private:
  struct Closer {
    void operator()(sqlite3* db) const;
  };
  explicit SqliteDb(sqlite3* db) : db_(db) {}
  std::unique_ptr<sqlite3, Closer> db_;
};

// BEGIN IMMEDIATE on construction (takes the write lock up front, so a busy writer waits on the
// busy timeout instead of failing mid-transaction); ROLLBACK on destruction unless committed.
class SqliteTransaction {
 public:
  static absl::StatusOr<SqliteTransaction> Begin(SqliteDb& db);
  SqliteTransaction(SqliteTransaction&& other) noexcept;
  SqliteTransaction& operator=(SqliteTransaction&&) = delete;
  SqliteTransaction(const SqliteTransaction&) = delete;
  ~SqliteTransaction();
  absl::Status Commit();

 private:
  explicit SqliteTransaction(SqliteDb* db) : db_(db) {}
  SqliteDb* db_;
};

}  // namespace tunefarm::tuner
