// `tunefarm worker --tracker HOST:PORT --key KEY`: serves this machine to a farm as a device of
// key KEY: connects out to the tracker, builds (unless --no-build) and measures the candidates it
// leases, reconnects when the tracker goes away; Ctrl-C or SIGTERM drains (finishes the
// candidate in hand, then leaves). With --build-only it builds for KEY's devices instead.
#pragma once

#include <atomic>
#include <ostream>
#include <string>

namespace tunefarm::tools {

struct WorkerCommandOptions {
  std::string tracker = "127.0.0.1:9190";
  std::string key;  // the device key, e.g. epyc-2c, rasp4b
  std::string target = "llvm";
  std::string token_file;
  std::string tls_root_cert;  // PEM of the CA that signed the tracker's certificate
  std::string work_dir;       // artifact cache; default: a fresh directory in $TMPDIR
  // Measure only: the tracker builds this worker's candidates (a slow machine, or to keep the
  // device quiet). Default: it compiles each candidate it is leased itself.
  bool no_build = false;
  // A builder for the devices of --key that cannot build (boards running the slim
  // tunefarm-rpc-server): it compiles their candidates for --target and measures nothing.
  bool build_only = false;
  // With build_only: this many builders in one process, each its own connection, building one
  // candidate at a time (a builder holds one lease, as every worker does).
  int parallel = 1;
  // "opencl" or "opencl:P:D": serve that OpenCL device (its target: `opencl -device=<profile>`).
  std::string device;
};

// 0 after draining; 1 with "tunefarm: ..." when the tracker refuses the token; 2 for bad options.
// `drain` is polled: once set, the worker finishes its lease and returns.
int RunWorkerCommand(const WorkerCommandOptions& options, const std::atomic<bool>* drain,
                     std::ostream& out, std::ostream& err);

}  // namespace tunefarm::tools
