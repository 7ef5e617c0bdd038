// tunefarm-rpc-server: the slim device-side worker for boards and phones. It links the runtime
// and the gRPC client only, and is its own measure child (--serve-measure), so one binary is all
// a device needs. SIGTERM/SIGINT drain (finish the lease in hand); a second one stops at once.
#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <fstream>
#include <limits.h>
#include <pthread.h>
#include <sstream>
#include <string>
#include <thread>
#include <unistd.h>
#include <vector>

#include "rpc_server/device_info.h"
#include "rpc_server/session_program.h"
#include "rpc_server/session_server.h"
#include "rpc_server/worker.h"
#include "runtime/devices/process_gpu.h"
#include "runtime/measure/measure_server.h"

namespace {

using tunefarm::rpc_server::kServeSessionsFlag;
using tunefarm::rpc_server::Worker;
using tunefarm::rpc_server::WorkerOptions;

constexpr char kServeMeasureFlag[] = "--serve-measure";

constexpr char kUsage[] =
    "usage: tunefarm-rpc-server --tracker HOST:PORT --key DEVICE_KEY [--target TARGET]\n"
    "                           [--token-file FILE] [--tls-root-cert FILE] [--work-dir DIR]\n"
    "                           [--emulator 'COMMAND ARGS'] [--device opencl[:P:D]]\n"
    "  --device opencl[:P:D]: serve this board's OpenCL GPU (platform P, device D; 0:0 by\n"
    "  default) instead of its CPU: the worker registers the device and an `opencl` target.\n"
    "  --emulator: this binary runs under an emulator that the kernel does not start by itself\n"
    "  (no binfmt_misc entry), e.g. 'qemu-aarch64 -L /usr/aarch64-linux-gnu': its measure and\n"
    "  session children are started through it, and the worker registers as emulated.\n";

// The child modes (measure, sessions): requests on stdin, responses on a private copy of stdout
// (fd 1 then points at stderr so a chatty kernel cannot corrupt the protocol). Returns that
// copy, or -1.
int PrepareChildMode() {
  // The worker blocks its termination signals for its watcher thread; the mask survives exec.
  sigset_t all;
  sigfillset(&all);
  pthread_sigmask(SIG_UNBLOCK, &all, nullptr);
  std::signal(SIGPIPE, SIG_IGN);
  const pid_t parent = getppid();
  // Orphaned while a candidate or a session call hangs: exit instead of spinning forever.
  std::thread([parent] {
    for (;;) {
      if (getppid() != parent) _exit(3);
      std::this_thread::sleep_for(std::chrono::milliseconds(200));
    }
  }).detach();
  int out = fcntl(1, F_DUPFD_CLOEXEC, 3);
  if (out < 0 || dup2(2, 1) < 0) return -1;
  return out;
}

int ServeMeasure(int argc, char** argv) {
  namespace devices = tunefarm::runtime::devices;
  for (int i = 2; i < argc; ++i) {
    absl::Status s = std::strcmp(argv[i], devices::kOpenClDeviceFlag) == 0 && i + 1 < argc
                         ? devices::ChooseOpenClDevice(argv[++i])
                         : absl::InvalidArgumentError(std::string("unknown argument ") + argv[i]);
    if (!s.ok()) {
      std::fprintf(stderr, "tunefarm-rpc-server --serve-measure: %s\n",
                   std::string(s.message()).c_str());
      return 2;
    }
  }
  const int out = PrepareChildMode();
  if (out < 0) return 2;
  return tunefarm::runtime::measure::ServeMeasureRequests(0, out);
}

int ServeSessions(int argc, char** argv) {
  absl::StatusOr<tunefarm::rpc_server::SessionServerConfig> config =
      tunefarm::rpc_server::ParseSessionServerArgs(std::vector<std::string>(argv + 2, argv + argc));
  if (!config.ok()) {
    std::fprintf(stderr, "tunefarm-rpc-server %s: %s\n", kServeSessionsFlag,
                 std::string(config.status().message()).c_str());
    return 2;
  }
  const int out = PrepareChildMode();
  if (out < 0) return 2;
  return tunefarm::rpc_server::ServeSessionCalls(0, out, *config);
}

int UsageError(const std::string& message) {
  std::fprintf(stderr, "tunefarm-rpc-server: %s (see --help)\n", message.c_str());
  return 2;
}

bool ReadToken(const std::string& path, std::string* token) {
  std::ifstream in(path);
  if (!in) return false;
  std::stringstream text;
  text << in.rdbuf();
  *token = text.str();
  while (!token->empty() && (token->back() == '\n' || token->back() == '\r' ||
                             token->back() == ' ' || token->back() == '\t')) {
    token->pop_back();
  }
  return true;
}

// Parses the flags into `options`; returns an error line, empty when they are fine.
std::string ParseFlags(int argc, char** argv, WorkerOptions* options, bool* help,
                       std::string* emulator) {
  std::string token_file;
  for (int i = 1; i < argc; ++i) {
    const std::string flag = argv[i];
    if (flag == "--help" || flag == "-h") {
      *help = true;
      return "";
    }
    std::string* target = nullptr;
    if (flag == "--tracker") target = &options->tracker;
    if (flag == "--key") target = &options->device_key;
    if (flag == "--target") target = &options->target;
    if (flag == "--token-file") target = &token_file;
    if (flag == "--tls-root-cert") target = &options->tls_root_cert_file;
    if (flag == "--work-dir") target = &options->work_dir;
    if (flag == "--emulator") target = emulator;
    if (flag == "--device") target = &options->gpu;
    if (target == nullptr) return "unknown flag '" + flag + "'";
    if (i + 1 >= argc) return "flag " + flag + " needs a value";
    *target = argv[++i];
  }
  if (options->tracker.empty()) return "--tracker HOST:PORT is required";
  if (options->device_key.empty()) return "--key DEVICE_KEY is required";
  if (!token_file.empty() && !ReadToken(token_file, &options->token)) {
    return "cannot read the token file '" + token_file + "'";
  }
  return "";
}

// Under an emulator that the kernel does not know (no binfmt_misc entry for this architecture),
// exec of this binary fails in every child: say so now, not in every lease's error.
std::string CheckChildrenCanStart(const std::string& emulator) {
  if (!emulator.empty()) return "";
  // Only the cpuinfo check: the worker runs the whole detection (with its speed probe) itself.
  const std::string host_arch = tunefarm::rpc_server::EmulatedOn();
  if (host_arch.empty()) return "";
  const std::string arch = tunefarm::rpc_server::CompiledArchitecture();
  if (access(("/proc/sys/fs/binfmt_misc/qemu-" + arch).c_str(), F_OK) == 0) return "";
  return "this " + arch + " binary runs under an emulator (/proc/cpuinfo describes an " +
         host_arch + " CPU) that the kernel cannot start by itself (no binfmt_misc entry qemu-" +
         arch + "): pass the command, e.g. --emulator 'qemu-" + arch + " -L /usr/" + arch +
         "-linux-gnu -E LD_LIBRARY_PATH=/usr/" + arch + "-linux-gnu/lib'";
}

std::string SelfPath() {
  char path[PATH_MAX];
  ssize_t n = readlink("/proc/self/exe", path, sizeof(path) - 1);
  if (n <= 0) return "";
  path[n] = '\0';
  return path;
}

// `name` as an executable: itself when it has a slash, else the first match on PATH; "" if none.
std::string ExecutableOnPath(const std::string& name) {
  if (name.find('/') != std::string::npos) return access(name.c_str(), X_OK) == 0 ? name : "";
  const char* path = std::getenv("PATH");
  std::istringstream dirs(path != nullptr ? path : "");
  for (std::string dir; std::getline(dirs, dir, ':');) {
    const std::string candidate = (dir.empty() ? "." : dir) + "/" + name;
    if (access(candidate.c_str(), X_OK) == 0) return candidate;
  }
  return "";
}

// The children (measure, sessions) run this binary again: directly, or through `emulator` (its
// words split on blanks) when one is given. Returns an error line, empty when all is well.
std::string SetChildPrograms(const std::string& emulator, WorkerOptions* options) {
  const std::string self = SelfPath();
  if (self.empty()) return "cannot find this program's path (/proc/self/exe)";
  std::istringstream in(emulator);
  std::vector<std::string> words;
  for (std::string word; in >> word;) words.push_back(word);
  if (words.empty()) {
    if (!emulator.empty()) return "--emulator needs a command";
    options->measure_program = self;
    options->measure_program_args = {kServeMeasureFlag};
    options->session_program = self;
    return "";
  }
  const std::string program = ExecutableOnPath(words[0]);
  if (program.empty()) return "--emulator: no executable '" + words[0] + "' (on PATH)";
  std::vector<std::string> args(words.begin() + 1, words.end());
  args.push_back(self);
  options->measure_program = program;
  options->measure_program_args = args;
  options->measure_program_args.push_back(kServeMeasureFlag);
  options->session_program = program;
  options->session_program_args = args;
  options->emulated = true;
  return "";
}

}  // namespace

int main(int argc, char** argv) {
  if (argc >= 2 && std::strcmp(argv[1], kServeMeasureFlag) == 0) return ServeMeasure(argc, argv);
  if (argc >= 2 && std::strcmp(argv[1], kServeSessionsFlag) == 0) return ServeSessions(argc, argv);

  WorkerOptions options;
  bool help = false;
  std::string emulator;
  std::string error = ParseFlags(argc, argv, &options, &help, &emulator);
  if (help) {
    std::fputs(kUsage, stdout);
    return 0;
  }
  if (error.empty()) error = SetChildPrograms(emulator, &options);
  if (error.empty()) error = CheckChildrenCanStart(emulator);
  if (!error.empty()) return UsageError(error);

  // Signals are taken by one watcher thread (sigwait), never by a handler: Drain and Stop take
  // locks, which a handler must not. Blocked before any thread starts, so all inherit the mask.
  sigset_t signals;
  sigemptyset(&signals);
  sigaddset(&signals, SIGTERM);
  sigaddset(&signals, SIGINT);
  sigaddset(&signals, SIGUSR1);  // sent by main itself to end the watcher
  pthread_sigmask(SIG_BLOCK, &signals, nullptr);
  std::signal(SIGPIPE, SIG_IGN);

  absl::StatusOr<std::unique_ptr<Worker>> worker = Worker::Create(options);
  if (!worker.ok()) {
    std::fprintf(stderr, "tunefarm-rpc-server: %s\n",
                 std::string(worker.status().message()).c_str());
    return 1;
  }
  Worker* w = worker->get();
  std::thread watcher([&signals, w] {
    int count = 0;
    for (;;) {
      int sig = 0;
      if (sigwait(&signals, &sig) != 0) continue;
      if (sig == SIGUSR1) return;
      if (++count == 1) {
        w->Drain();
      } else {
        w->Stop();
      }
    }
  });
  absl::Status status = w->Run();
  pthread_kill(watcher.native_handle(), SIGUSR1);
  watcher.join();
  worker->reset();
  if (!status.ok()) {
    std::fprintf(stderr, "tunefarm-rpc-server: %s\n", status.ToString().c_str());
    return 1;
  }
  return 0;
}
