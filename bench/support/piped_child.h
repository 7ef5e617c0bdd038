// A helper process driven over pipes (its stdin and stdout carry one line per message), and what
// /proc says about a process: for benchmarks that run a server in its own process so that its
// memory and CPU can be measured apart from the load generator.
#pragma once

#include <cstdio>
#include <string>
#include <sys/types.h>
#include <vector>

#include "absl/status/statusor.h"

namespace tunefarm::bench {

struct PipedChild {
  pid_t pid = -1;
  FILE* out = nullptr;  // reads its stdout
  int in = -1;          // writes its stdin
};

// Starts argv[0] with argv; its stderr stays ours. Spawn it before starting threads that might
// hold locks (gRPC), though posix_spawn itself is safe with threads.
absl::StatusOr<PipedChild> SpawnPiped(std::vector<std::string> argv);
// One line without its newline; "" at end of file.
std::string ReadLine(PipedChild& child);
bool WriteLine(PipedChild& child, const std::string& line);
// Sends `last_line` (if not empty), closes its stdin and waits up to `timeout_s` for it to exit,
// then kills it. Idempotent.
void EndPiped(PipedChild& child, const std::string& last_line, double timeout_s);

// In the child: moves the pipe to the parent off stdout (returning it; stdout then goes to
// stderr), so that logging to stdout cannot garble the protocol.
FILE* TakeProtocolStdout();

// A "Vm...:" field of /proc/PID/status (VmRSS, VmHWM), in MiB; 0 when unreadable.
double ProcStatusMiB(pid_t pid, const std::string& field);
// utime + stime of a process from /proc/PID/stat, in seconds.
double ProcCpuSeconds(pid_t pid);
// The process's thread count (/proc/PID/status Threads); 0 when unreadable.
int ProcThreads(pid_t pid);

}  // namespace tunefarm::bench
