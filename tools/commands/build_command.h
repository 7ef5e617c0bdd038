// `tunefarm build FILE.te --target T -o lib.so`: compiles a TE script's scheduled function into a
// shared library for the target (the host or a cross target), loadable by the runtime there.
#pragma once

#include <ostream>
#include <string>

namespace tunefarm::tools {

struct BuildOptions {
  std::string file;      // a TE script, or empty with `workload`
  std::string workload;  // a workload key of the operator library ("matmul:1024,1024,1024")
  std::string bind;      // sizes of a script with cfg knobs
  std::string target = "llvm";
  std::string output;
  // With a record database, the best recorded config of the workload (or of the script's knobs)
  // on this target and device is built instead of the default; "schedule: ..." says which.
  std::string db;
  std::string device_key;  // empty: this machine's local key
};

// 0 with "wrote PATH: kernel NAME(signature) for TARGET" on `out`; 1 with one "tunefarm: ..." line
// on `err` when the script, lowering or code generation fails; 2 for a bad target string.
int RunBuildCommand(const BuildOptions& options, std::ostream& out, std::ostream& err);

}  // namespace tunefarm::tools
