// PipedChild: posix_spawn with the child's stdin and stdout on pipes, line I/O over them, and
// /proc readers.
#include "bench/support/piped_child.h"

#include <chrono>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <fstream>
#include <iterator>
#include <signal.h>
#include <spawn.h>
#include <sstream>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

extern char** environ;

namespace tunefarm::bench {

absl::StatusOr<PipedChild> SpawnPiped(std::vector<std::string> args) {
  if (args.empty()) return absl::InvalidArgumentError("no program to spawn");
  int to_child[2], from_child[2];
  if (pipe2(to_child, O_CLOEXEC) != 0) return absl::InternalError("pipe failed");
  if (pipe2(from_child, O_CLOEXEC) != 0) {
    close(to_child[0]);
    close(to_child[1]);
    return absl::InternalError("pipe failed");
  }
  // dup2 clears close-on-exec on the copies, so the child keeps exactly its stdin and stdout.
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, to_child[0], 0);
  posix_spawn_file_actions_adddup2(&actions, from_child[1], 1);
  std::vector<char*> argv;
  for (std::string& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);
  PipedChild child;
  const int rc = posix_spawn(&child.pid, args[0].c_str(), &actions, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  close(to_child[0]);
  close(from_child[1]);
  if (rc != 0) {
    close(to_child[1]);
    close(from_child[0]);
    return absl::InternalError("cannot start " + args[0] + ": " + std::strerror(rc));
  }
  child.in = to_child[1];
  child.out = fdopen(from_child[0], "r");
  return child;
}

std::string ReadLine(PipedChild& child) {
  if (child.out == nullptr) return "";
  char buf[1024];
  if (std::fgets(buf, sizeof buf, child.out) == nullptr) return "";
  std::string s(buf);
  while (!s.empty() && s.back() == '\n') s.pop_back();
  return s;
}

bool WriteLine(PipedChild& child, const std::string& line) {
  if (child.in < 0) return false;
  const std::string s = line + "\n";
  return write(child.in, s.data(), s.size()) == static_cast<ssize_t>(s.size());
}

void EndPiped(PipedChild& child, const std::string& last_line, double timeout_s) {
  if (child.in >= 0) {
    if (!last_line.empty()) WriteLine(child, last_line);
    close(child.in);
    child.in = -1;
  }
  if (child.pid > 0) {
    const auto deadline = std::chrono::steady_clock::now() +
                          std::chrono::milliseconds(static_cast<int64_t>(timeout_s * 1000));
    while (waitpid(child.pid, nullptr, WNOHANG) != child.pid) {
      if (std::chrono::steady_clock::now() > deadline) {
        kill(child.pid, SIGKILL);
        waitpid(child.pid, nullptr, 0);
        break;
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    child.pid = -1;
  }
  if (child.out != nullptr) {
    std::fclose(child.out);
    child.out = nullptr;
  }
}

FILE* TakeProtocolStdout() {
  std::fflush(stdout);
  const int fd = dup(1);
  dup2(2, 1);
  return fd >= 0 ? fdopen(fd, "w") : nullptr;
}

double ProcStatusMiB(pid_t pid, const std::string& field) {
  std::ifstream in("/proc/" + std::to_string(pid) + "/status");
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind(field + ":", 0) == 0) return std::atof(line.c_str() + field.size() + 1) / 1024;
  }
  return 0;
}

int ProcThreads(pid_t pid) {
  std::ifstream in("/proc/" + std::to_string(pid) + "/status");
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind("Threads:", 0) == 0) return std::atoi(line.c_str() + 8);
  }
  return 0;
}

double ProcCpuSeconds(pid_t pid) {
  std::ifstream in("/proc/" + std::to_string(pid) + "/stat");
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  const size_t paren = text.rfind(')');
  if (paren == std::string::npos || paren + 2 > text.size()) return 0;
  std::istringstream rest(text.substr(paren + 2));  // from field 3 (state) on
  std::string field;
  double ticks = 0;
  for (int i = 3; i <= 15 && rest >> field; ++i) {
    if (i == 14 || i == 15) ticks += std::atof(field.c_str());  // utime, stime
  }
  return ticks / static_cast<double>(sysconf(_SC_CLK_TCK));
}

}  // namespace tunefarm::bench
