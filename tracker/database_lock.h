// DatabaseLock: one tracker per record database. Two trackers on one database would both resume
// its unfinished jobs and measure their trials twice, so the second one must refuse to start.
#pragma once

#include <string>
#include <utility>

#include "absl/status/statusor.h"

namespace tunefarm::tracker {

// An exclusive flock(2) on `<db>.lock` beside the database, held as long as this object lives.
// The kernel drops it when the process exits or crashes, so a killed tracker leaves no stale
// lock; the lock file itself stays (removing it would let two trackers lock two different
// files). A sibling file, not the database: SQLite's own fcntl locks on it are left alone.
class DatabaseLock {
 public:
  // Holds nothing.
  DatabaseLock() = default;
  // Takes the lock for the database at `db_path` without waiting. FailedPrecondition naming the
  // database and the holder's pid when another tracker holds it; the errno's code when the lock
  // file cannot be opened. In-memory databases (":memory:", "file::memory:", "mode=memory")
  // belong to one connection and get an empty lock.
  static absl::StatusOr<DatabaseLock> Acquire(const std::string& db_path);

  DatabaseLock(DatabaseLock&& other) noexcept;
  DatabaseLock& operator=(DatabaseLock&& other) noexcept;
  DatabaseLock(const DatabaseLock&) = delete;
  DatabaseLock& operator=(const DatabaseLock&) = delete;
  ~DatabaseLock();  // releases the lock

  bool held() const { return fd_ >= 0; }
  const std::string& lock_path() const { return lock_path_; }  // empty when nothing is held

 private:
  DatabaseLock(int fd, std::string lock_path) : fd_(fd), lock_path_(std::move(lock_path)) {}
  void Release();

  int fd_ = -1;
  std::string lock_path_;
};

}  // namespace tunefarm::tracker
