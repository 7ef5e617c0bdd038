#include "tracker/database_lock.h"

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <filesystem>
#include <sys/file.h>
#include <system_error>
#include <unistd.h>
#include <utility>

#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"

namespace tunefarm::tracker {
namespace {

bool InMemory(const std::string& db_path) {
  return db_path == ":memory:" || absl::StartsWith(db_path, "file::memory:") ||
         (absl::StartsWith(db_path, "file:") && db_path.find("mode=memory") != std::string::npos);
}

// The lock file of the database, through symlinks and `..`, so that two spellings of one
// database path lock one file.
std::string LockPathFor(const std::string& db_path) {
  std::error_code ec;
  std::filesystem::path resolved = std::filesystem::weakly_canonical(db_path, ec);
  if (ec) resolved = db_path;
  return resolved.string() + ".lock";
}

// The pid the holder wrote into the lock file; 0 when it cannot be read (the holder may not have
// written it yet).
long HolderPid(int fd) {
  char text[32] = {};
  ssize_t n = ::pread(fd, text, sizeof(text) - 1, 0);
  long pid = 0;
  if (n <= 0 || !absl::SimpleAtoi(absl::StripAsciiWhitespace(absl::string_view(text, n)), &pid)) {
    return 0;
  }
  return pid;
}

void WritePid(int fd) {
  const std::string pid = absl::StrCat(::getpid(), "\n");
  // Best effort: the pid only makes the second tracker's error clearer.
  if (::ftruncate(fd, 0) == 0) {
    [[maybe_unused]] ssize_t n = ::pwrite(fd, pid.data(), pid.size(), 0);
  }
}

}  // namespace

absl::StatusOr<DatabaseLock> DatabaseLock::Acquire(const std::string& db_path) {
  if (InMemory(db_path)) return DatabaseLock();
  std::string lock_path = LockPathFor(db_path);
  // O_CLOEXEC: a spawned linker or measure child must not keep the lock after we are gone.
  int fd = ::open(lock_path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
  if (fd < 0) {
    const int error = errno;
    return absl::Status(absl::ErrnoToStatusCode(error),
                        absl::StrCat("cannot open the lock file ", lock_path, " of database ",
                                     db_path, ": ", std::strerror(error)));
  }
  // flock, not fcntl: its locks belong to the open file, so two trackers in one process (tests,
  // the demo) exclude each other too.
  if (::flock(fd, LOCK_EX | LOCK_NB) != 0) {
    const int error = errno;
    if (error != EWOULDBLOCK) {
      ::close(fd);
      return absl::Status(absl::ErrnoToStatusCode(error),
                          absl::StrCat("cannot lock ", lock_path, " of database ", db_path, ": ",
                                       std::strerror(error)));
    }
    const long pid = HolderPid(fd);
    ::close(fd);
    return absl::FailedPreconditionError(
        absl::StrCat("database ", db_path, " is in use by another tracker (",
                     pid > 0 ? absl::StrCat("pid ", pid, ", ") : std::string(), "lock ", lock_path,
                     "); stop that tracker or use another database"));
  }
  WritePid(fd);
  return DatabaseLock(fd, std::move(lock_path));
}

DatabaseLock::DatabaseLock(DatabaseLock&& other) noexcept
    : fd_(std::exchange(other.fd_, -1)), lock_path_(std::move(other.lock_path_)) {
  other.lock_path_.clear();
}

DatabaseLock& DatabaseLock::operator=(DatabaseLock&& other) noexcept {
  if (this != &other) {
    Release();
    fd_ = std::exchange(other.fd_, -1);
    lock_path_ = std::move(other.lock_path_);
    other.lock_path_.clear();
  }
  return *this;
}

DatabaseLock::~DatabaseLock() { Release(); }

void DatabaseLock::Release() {
  if (fd_ < 0) return;
  ::close(fd_);  // closing the last descriptor of the open file drops the flock
  fd_ = -1;
  lock_path_.clear();
}

}  // namespace tunefarm::tracker
