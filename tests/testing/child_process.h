// A program started by a test as a real process (a tracker, a worker, the CLI), with its output
// in a log file, so tests can kill it mid-run and read what it printed.
#pragma once

#include <string>
#include <sys/types.h>
#include <vector>

namespace tunefarm::fixtures {

class ChildProcess {
 public:
  ChildProcess() = default;
  // Starts `argv[0]` with the arguments; stdout and stderr go to `log_path`. pid() is -1 when it
  // could not start.
  ChildProcess(const std::vector<std::string>& argv, const std::string& log_path);
  // Kills (SIGKILL) and reaps the process if it is still running.
  ~ChildProcess();
  ChildProcess(ChildProcess&& other) noexcept;
  ChildProcess& operator=(ChildProcess&& other) noexcept;
  ChildProcess(const ChildProcess&) = delete;
  ChildProcess& operator=(const ChildProcess&) = delete;

  pid_t pid() const { return pid_; }
  bool Running();  // reaps it when it has ended
  void Signal(int sig);
  // Waits up to `timeout_s` for it to end; its exit code, 128 + signal when killed, or -1 on
  // timeout (it is left running).
  int Wait(double timeout_s);
  std::string Log() const;  // everything it printed so far

 private:
  pid_t pid_ = -1;
  int status_ = -1;  // the wait status once reaped
  std::string log_path_;
};

}  // namespace tunefarm::fixtures
