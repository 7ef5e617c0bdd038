#include "compiler/codegen/llvm/linker.h"

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <fstream>
#include <spawn.h>
#include <sstream>
#include <sys/wait.h>

#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/strip.h"

extern char** environ;

namespace tunefarm::codegen {
namespace {

std::string ReadLog(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return std::string(absl::StripTrailingAsciiWhitespace(text.str()));
}

// Runs `argv` with stdout and stderr going to `log_path`; returns its wait status.
absl::StatusOr<int> Spawn(const std::vector<std::string>& argv, const std::string& log_path) {
  std::vector<char*> args;
  for (const std::string& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, 2, log_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC,
                                   0600);
  posix_spawn_file_actions_adddup2(&actions, 2, 1);
  pid_t pid = 0;
  int rc = posix_spawn(&pid, args[0], &actions, nullptr, args.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  if (rc != 0) {
    return absl::UnavailableError(
        absl::StrCat("cannot run the linker ", argv[0], ": ", std::strerror(rc)));
  }
  int status = 0;
  while (waitpid(pid, &status, 0) < 0) {
    if (errno != EINTR) {
      return absl::InternalError(absl::StrCat("waiting for ", argv[0], ": ", std::strerror(errno)));
    }
  }
  return status;
}

}  // namespace

absl::Status LinkSharedLibrary(const std::vector<std::string>& objects, const std::string& output,
                               const std::string& log_path) {
  // No -z defs: libc and libm symbols (expf, aligned_alloc) resolve from the loading process.
  std::vector<std::string> argv = {TUNEFARM_LLD_PROGRAM, "-shared", "-z",  "noexecstack",
                                   "--hash-style=both",  "-o",      output};
  argv.insert(argv.end(), objects.begin(), objects.end());
  absl::StatusOr<int> status = Spawn(argv, log_path);
  if (!status.ok()) return status.status();
  if (WIFEXITED(*status) && WEXITSTATUS(*status) == 0) return absl::OkStatus();
  std::string how = WIFEXITED(*status) ? absl::StrCat("exit status ", WEXITSTATUS(*status))
                                       : absl::StrCat("signal ", WTERMSIG(*status));
  return absl::InternalError(
      absl::StrCat("linking ", output, " failed (", argv[0], ", ", how, "): ", ReadLog(log_path)));
}

}  // namespace tunefarm::codegen
