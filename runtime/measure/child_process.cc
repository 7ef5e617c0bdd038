#include "runtime/measure/child_process.h"

#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstring>
#include <spawn.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

#include "absl/strings/str_cat.h"

extern char** environ;

namespace tunefarm::runtime::measure {
namespace {

std::string SignalName(int sig) {
  if (const char* abbrev = sigabbrev_np(sig); abbrev != nullptr) return absl::StrCat("SIG", abbrev);
  return absl::StrCat("signal ", sig);
}

// Signal state the child starts with, whatever the tuner's threads block or ignore: nothing
// blocked, crash and termination signals at their defaults, and a process group of its own.
void InitSpawnAttributes(posix_spawnattr_t* attr) {
  posix_spawnattr_init(attr);
  sigset_t none;
  sigemptyset(&none);
  posix_spawnattr_setsigmask(attr, &none);
  sigset_t defaults;
  sigemptyset(&defaults);
  for (int sig : {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT, SIGTERM, SIGINT, SIGHUP}) {
    sigaddset(&defaults, sig);
  }
  posix_spawnattr_setsigdefault(attr, &defaults);
  posix_spawnattr_setpgroup(attr, 0);
  posix_spawnattr_setflags(attr,
                           POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETPGROUP);
}

}  // namespace

std::string DescribeWaitStatus(int status) {
  if (WIFSIGNALED(status)) return absl::StrCat("killed by ", SignalName(WTERMSIG(status)));
  if (WIFEXITED(status)) return absl::StrCat("exited with status ", WEXITSTATUS(status));
  return absl::StrCat("ended with wait status ", status);
}

absl::StatusOr<std::unique_ptr<ChildProcess>> ChildProcess::Start(
    const std::string& program, const std::vector<std::string>& args) {
  // Close-on-exec on both ends: the builder's concurrent linker spawns must not inherit them
  // (a stray copy of the child's end would hide the child's death from us).
  int fds[2];
  if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, fds) != 0) {
    return absl::UnavailableError(absl::StrCat("socketpair: ", std::strerror(errno)));
  }
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, fds[1], 0);  // dup2 clears close-on-exec
  posix_spawn_file_actions_adddup2(&actions, fds[1], 1);
  posix_spawnattr_t attr;
  InitSpawnAttributes(&attr);
  std::vector<std::string> words = {program};
  words.insert(words.end(), args.begin(), args.end());
  std::vector<char*> argv;
  for (std::string& w : words) argv.push_back(w.data());
  argv.push_back(nullptr);
  pid_t pid = 0;
  const int rc = posix_spawn(&pid, program.c_str(), &actions, &attr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  posix_spawnattr_destroy(&attr);
  close(fds[1]);
  if (rc != 0) {
    close(fds[0]);
    return absl::UnavailableError(absl::StrCat("cannot start ", program, ": ", std::strerror(rc)));
  }
  return std::unique_ptr<ChildProcess>(new ChildProcess(pid, fds[0]));
}

ChildProcess::~ChildProcess() {
  if (pid_ > 0) {
    Reap(/*grace_ms=*/1000);
  } else if (fd_ >= 0) {
    close(fd_);
  }
}

bool ChildProcess::ExitedWhileIdle() {
  if (pid_ <= 0) return true;
  int status = 0;
  if (waitpid(pid_, &status, WNOHANG) != pid_) return false;
  pid_ = -1;
  close(fd_);
  fd_ = -1;
  return true;
}

std::string ChildProcess::Reap(int grace_ms) {
  const pid_t pid = pid_;
  pid_ = -1;
  if (fd_ >= 0) {
    close(fd_);
    fd_ = -1;
  }
  int status = 0;
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(grace_ms);
  for (;;) {
    pid_t r = waitpid(pid, &status, WNOHANG);
    if (r == pid) return DescribeWaitStatus(status);
    if (r < 0 && errno != EINTR) return absl::StrCat("lost (waitpid: ", std::strerror(errno), ")");
    if (r == 0 && std::chrono::steady_clock::now() >= deadline) break;
    if (r == 0) std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  kill(pid, SIGKILL);
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  return DescribeWaitStatus(status);
}

}  // namespace tunefarm::runtime::measure
