// HostTimingLock: one timing window at a time on a host. Every process of this machine that times
// a kernel (workers' measure children, local runners, sessions, `tunefarm time`) holds it
// exclusively while it times; builds and reference runs hold it shared, so they run beside each
// other but never while something is being timed. Two workers started on one machine therefore
// take turns instead of timing on cores the other one, or the tracker's compiler, is using.
#pragma once

#include <string>

#include "absl/status/statusor.h"

namespace tunefarm::runtime::measure {

class HostTimingLock {
 public:
  enum class Mode {
    kTiming,    // exclusive: nothing else runs its heavy work on this host meanwhile
    kBuilding,  // shared with other builds and reference runs; waits for timings to end
  };

  // The lock file: $TUNEFARM_TIMING_LOCK when set, else /tmp/tunefarm-timing.lock (the file
  // every process of this host finds; containers that should take turns must share it).
  // TUNEFARM_TIMING_LOCK=off turns the lock off (a board with one worker and nothing else).
  static std::string DefaultPath();

  // Waits for the lock at `path` (DefaultPath() when empty) for at most `max_wait_s` seconds.
  // A timing that waits takes precedence over builds that arrive after it. Past the wait, or
  // when the lock is off, returns a lock that is not held (held() false, reason() says why):
  // the caller goes on and says so, since a stuck neighbour must not stop the farm. Fails only
  // when the file cannot be opened or created.
  static absl::StatusOr<HostTimingLock> Acquire(Mode mode, double max_wait_s,
                                                const std::string& path = "");

  HostTimingLock(HostTimingLock&& other) noexcept;
  HostTimingLock& operator=(HostTimingLock&& other) noexcept;
  HostTimingLock(const HostTimingLock&) = delete;
  HostTimingLock& operator=(const HostTimingLock&) = delete;
  ~HostTimingLock();  // releases it

  bool held() const { return fd_ >= 0; }
  bool off() const { return off_; }  // TUNEFARM_TIMING_LOCK=off: nobody to take turns with
  const std::string& reason() const { return reason_; }  // why it is not held; empty if held
  double waited_s() const { return waited_s_; }

 private:
  HostTimingLock() = default;
  void Release();

  int fd_ = -1;
  bool off_ = false;
  std::string reason_;
  double waited_s_ = 0;
};

}  // namespace tunefarm::runtime::measure
