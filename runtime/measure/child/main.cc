// tunefarm-measure: the child process a local runner sends candidates to (protocol: README.md
// beside this folder). Generated code runs here, so a crash or a hang costs this process only.
#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <fcntl.h>
#include <thread>
#include <unistd.h>

#include "runtime/devices/process_gpu.h"
#include "runtime/measure/measure_server.h"

namespace {

// A runner that dies while a candidate hangs would leave this process spinning forever: exit as
// soon as we are orphaned (the parent's pid changes). Polling is portable and, unlike
// PR_SET_PDEATHSIG, not tied to the lifetime of the thread that spawned us.
void ExitWhenOrphaned(pid_t parent) {
  std::thread([parent] {
    for (;;) {
      if (getppid() != parent) _exit(3);
      std::this_thread::sleep_for(std::chrono::milliseconds(200));
    }
  }).detach();
}

}  // namespace

// Under AddressSanitizer or ThreadSanitizer (scripts/sanitize.sh): a candidate that crashes is an
// outcome this process reports by its signal ("killed by SIGSEGV"), which the sanitizer's own
// handler would turn into an abort. The sanitizers still report memory errors in our code, which it
// finds without signals.
extern "C" const char* __asan_default_options() {
  return "handle_segv=0:handle_sigbus=0:handle_sigfpe=0:handle_sigill=0";
}
extern "C" const char* __tsan_default_options() {
  return "handle_segv=0:handle_sigbus=0:handle_sigfpe=0:handle_sigill=0";
}

int main(int argc, char** argv) {
  // `--opencl-device P:D`: the OpenCL device a worker serves (its `--device opencl:P:D`).
  namespace devices = tunefarm::runtime::devices;
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], devices::kOpenClDeviceFlag) != 0 || i + 1 >= argc) {
      std::fprintf(stderr, "tunefarm-measure: usage: tunefarm-measure [%s P:D]\n",
                   devices::kOpenClDeviceFlag);
      return 2;
    }
    if (absl::Status s = devices::ChooseOpenClDevice(argv[++i]); !s.ok()) {
      std::fprintf(stderr, "tunefarm-measure: %s\n", std::string(s.message()).c_str());
      return 2;
    }
  }
  // A runner that went away must end this process through EOF or EPIPE, not a signal.
  std::signal(SIGPIPE, SIG_IGN);
  ExitWhenOrphaned(getppid());
  // Responses go to a private copy of stdout; fd 1 then points at stderr, so that anything else
  // printing to stdout (a library, a debugging kernel) cannot corrupt the protocol.
  int out = fcntl(1, F_DUPFD_CLOEXEC, 3);
  if (out < 0 || dup2(2, 1) < 0) return 2;
  return tunefarm::runtime::measure::ServeMeasureRequests(0, out);
}
