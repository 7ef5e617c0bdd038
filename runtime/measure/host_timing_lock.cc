#include "runtime/measure/host_timing_lock.h"

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <thread>
#include <unistd.h>

#include "absl/strings/str_cat.h"
#include "runtime/time_evaluator.h"

namespace tunefarm::runtime::measure {
namespace {

absl::StatusOr<int> OpenShared(const std::string& path) {
  const int fd = open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0666);
  if (fd < 0) {
    return absl::UnavailableError(
        absl::StrCat("host timing lock ", path, ": ", std::strerror(errno)));
  }
  // Workers of other users on this host must be able to take turns too; umask narrows 0666.
  (void)fchmod(fd, 0666);
  return fd;
}

// flock has no timed wait: poll, with a short sleep that grows to a few ms (a waiter must not
// wake often enough to disturb the timing it waits for).
bool LockBefore(int fd, int operation, double deadline) {
  double sleep_s = 1e-4;
  for (;;) {
    if (flock(fd, operation | LOCK_NB) == 0) return true;
    if (errno != EWOULDBLOCK && errno != EINTR) return false;
    if (runtime::SteadySeconds() >= deadline) return false;
    std::this_thread::sleep_for(std::chrono::duration<double>(sleep_s));
    sleep_s = std::min(sleep_s * 2, 4e-3);
  }
}

}  // namespace

std::string HostTimingLock::DefaultPath() {
  const char* env = std::getenv("TUNEFARM_TIMING_LOCK");
  if (env != nullptr && *env != '\0') return env;
  return "/tmp/tunefarm-timing.lock";
}

absl::StatusOr<HostTimingLock> HostTimingLock::Acquire(Mode mode, double max_wait_s,
                                                       const std::string& path) {
  const std::string file = path.empty() ? DefaultPath() : path;
  HostTimingLock lock;
  if (file == "off") {
    lock.off_ = true;
    lock.reason_ = "the host timing lock is off (TUNEFARM_TIMING_LOCK=off)";
    return lock;
  }
  absl::StatusOr<int> main_fd = OpenShared(file);
  if (!main_fd.ok()) return main_fd.status();
  // The turnstile: whoever waits for the main lock holds it, so a timing that is waiting keeps
  // builds that come later from slipping in ahead of it (flock alone lets shared holders
  // starve an exclusive waiter).
  absl::StatusOr<int> turn_fd = OpenShared(file + ".turn");
  if (!turn_fd.ok()) {
    close(*main_fd);
    return turn_fd.status();
  }
  const double start = runtime::SteadySeconds();
  const double deadline = start + std::max(0.0, max_wait_s);
  bool got = LockBefore(*turn_fd, LOCK_EX, deadline) &&
             LockBefore(*main_fd, mode == Mode::kTiming ? LOCK_EX : LOCK_SH, deadline);
  close(*turn_fd);  // also releases the turnstile
  lock.waited_s_ = runtime::SteadySeconds() - start;
  if (!got) {
    close(*main_fd);
    lock.reason_ = absl::StrCat("waited ", lock.waited_s_, " s for the host timing lock ", file,
                                " without getting it; going on without it");
    return lock;
  }
  lock.fd_ = *main_fd;
  return lock;
}

HostTimingLock::HostTimingLock(HostTimingLock&& other) noexcept
    : fd_(other.fd_),
      off_(other.off_),
      reason_(std::move(other.reason_)),
      waited_s_(other.waited_s_) {
  other.fd_ = -1;
}

HostTimingLock& HostTimingLock::operator=(HostTimingLock&& other) noexcept {
  if (this != &other) {
    Release();
    fd_ = other.fd_;
    off_ = other.off_;
    reason_ = std::move(other.reason_);
    waited_s_ = other.waited_s_;
    other.fd_ = -1;
  }
  return *this;
}

HostTimingLock::~HostTimingLock() { Release(); }

void HostTimingLock::Release() {
  if (fd_ >= 0) close(fd_);  // closing the only descriptor drops the flock
  fd_ = -1;
}

}  // namespace tunefarm::runtime::measure
