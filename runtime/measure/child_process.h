// A helper process that runs code we do not trust (candidates, uploaded session libraries):
// spawned with one end of a Unix socket as its stdin and stdout, in its own process group, with
// crash signals at their defaults, and always reaped, so that no zombie is left.
#pragma once

#include <memory>
#include <string>
#include <sys/types.h>
#include <vector>

#include "absl/status/statusor.h"

namespace tunefarm::runtime::measure {

class ChildProcess {
 public:
  // Spawns `program` with `args` after its name. Unavailable naming the program when it cannot
  // start. The process group is its own, so a Ctrl-C at the terminal is ours to handle.
  static absl::StatusOr<std::unique_ptr<ChildProcess>> Start(
      const std::string& program, const std::vector<std::string>& args = {});

  // Closes the socket (the child exits at end of input), waits up to a second, then kills it.
  ~ChildProcess();
  ChildProcess(const ChildProcess&) = delete;
  ChildProcess& operator=(const ChildProcess&) = delete;

  // Our end of the socket; -1 once reaped.
  int fd() const { return fd_; }
  pid_t pid() const { return pid_; }
  bool alive() const { return pid_ > 0; }

  // Closes the socket, waits up to `grace_ms` for the child to end, kills it past that, and
  // says how it ended ("killed by SIGSEGV", "exited with status 1").
  std::string Reap(int grace_ms);
  // True (and the child reaped) when it has already ended; never blocks.
  bool ExitedWhileIdle();

 private:
  ChildProcess(pid_t pid, int fd) : pid_(pid), fd_(fd) {}

  pid_t pid_;
  int fd_;
};

// "killed by SIGSEGV", "exited with status 3", from a waitpid status.
std::string DescribeWaitStatus(int status);

}  // namespace tunefarm::runtime::measure
