#include "compiler/codegen/llvm/linker.h"

#include <cerrno>
#include <csignal>
#include <cstring>
#include <fcntl.h>
#include <fstream>
#include <mutex>
#include <spawn.h>
#include <sstream>
#include <sys/wait.h>

#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/strip.h"
#include "lld/Common/Driver.h"
#include "llvm/Support/raw_ostream.h"

LLD_HAS_DRIVER(elf)

extern char** environ;

namespace tunefarm::codegen {
namespace {

// No -z defs: libc and libm symbols (expf, aligned_alloc) resolve from the loading process.
// --threads=1: a kernel library is a link of one or two small objects, and lld's thread pool
// would otherwise live on in every process that builds one.
std::vector<std::string> LinkArguments(const std::string& program,
                                       const std::vector<std::string>& objects,
                                       const std::string& output) {
  std::vector<std::string> argv = {
      program, "-shared", "-z", "noexecstack", "--hash-style=both", "--threads=1", "-o", output};
  argv.insert(argv.end(), objects.begin(), objects.end());
  return argv;
}

std::string ReadLog(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return std::string(absl::StripTrailingAsciiWhitespace(text.str()));
}

absl::Status LinkFailed(const std::string& output, const std::string& how,
                        const std::string& diagnostics) {
  return absl::InternalError(absl::StrCat("linking ", output, " failed (", how,
                                          "): ", absl::StripTrailingAsciiWhitespace(diagnostics)));
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

// lld writes its output through a temporary file that LLVM registers for removal on a signal;
// a registration installs LLVM's signal handlers and, unless the calling thread has an alternate
// signal stack of at least ~64 KiB, allocates one and swaps it in (again after every signal,
// each time leaking the last). A sanitizer's runtime unmaps the stack it gave a thread when the
// thread exits, and aborts when that is no longer the thread's. So while lld runs, the thread's
// alternate stack is this large one (one link at a time: never two threads on it), and the
// thread's own is put back after.
class LinkingSignalStack {
 public:
  LinkingSignalStack() : saved_(sigaltstack(nullptr, &old_) == 0) {
    alignas(64) static char stack[256 << 10];
    stack_t ours{};
    ours.ss_sp = stack;
    ours.ss_size = sizeof(stack);
    if (saved_ && !(old_.ss_flags & SS_ONSTACK)) sigaltstack(&ours, nullptr);
  }
  ~LinkingSignalStack() {
    if (!saved_ || (old_.ss_flags & SS_ONSTACK)) return;
    if (old_.ss_flags & SS_DISABLE) {
      stack_t disable{};
      disable.ss_flags = SS_DISABLE;
      sigaltstack(&disable, nullptr);
    } else {
      old_.ss_flags = 0;
      sigaltstack(&old_, nullptr);
    }
  }
  LinkingSignalStack(const LinkingSignalStack&) = delete;
  LinkingSignalStack& operator=(const LinkingSignalStack&) = delete;

 private:
  stack_t old_{};
  bool saved_;
};

// lld keeps its state in globals: one link at a time in a process. Once a link ends in a way lld
// cannot recover from (a crash it caught), the rest run as child processes.
struct InProcessLinker {
  std::mutex mutex;
  bool usable = true;
};

InProcessLinker& Linker() {
  static InProcessLinker* linker = new InProcessLinker;
  return *linker;
}

}  // namespace

absl::Status LinkSharedLibraryInChildProcess(const std::vector<std::string>& objects,
                                             const std::string& output,
                                             const std::string& log_path) {
  std::vector<std::string> argv = LinkArguments(TUNEFARM_LLD_PROGRAM, objects, output);
  absl::StatusOr<int> status = Spawn(argv, log_path);
  if (!status.ok()) return status.status();
  if (WIFEXITED(*status) && WEXITSTATUS(*status) == 0) return absl::OkStatus();
  std::string how = WIFEXITED(*status) ? absl::StrCat("exit status ", WEXITSTATUS(*status))
                                       : absl::StrCat("signal ", WTERMSIG(*status));
  return LinkFailed(output, absl::StrCat(argv[0], ", ", how), ReadLog(log_path));
}

absl::Status LinkSharedLibrary(const std::vector<std::string>& objects, const std::string& output,
                               const std::string& log_path) {
  InProcessLinker& linker = Linker();
  std::unique_lock lock(linker.mutex);
  if (!linker.usable) {
    lock.unlock();
    return LinkSharedLibraryInChildProcess(objects, output, log_path);
  }
  // Named ld.lld so that lld picks its ELF driver and names itself so in its messages.
  std::vector<std::string> args = LinkArguments("ld.lld", objects, output);
  std::vector<const char*> argv;
  for (const std::string& a : args) argv.push_back(a.c_str());
  std::string messages;
  llvm::raw_string_ostream stream(messages);
  lld::Result result;
  {
    LinkingSignalStack signal_stack;
    result = lld::lldMain(argv, stream, stream, {{lld::Gnu, &lld::elf::link}});
  }
  stream.flush();
  if (!result.canRunAgain) linker.usable = false;
  if (result.retCode == 0) return absl::OkStatus();
  return LinkFailed(output, absl::StrCat("lld in this process, exit status ", result.retCode),
                    messages);
}

}  // namespace tunefarm::codegen
