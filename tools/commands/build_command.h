// `tunefarm build FILE.te --target T -o lib.so`: compiles a TE script's scheduled function into a
// shared library for the target (the host or a cross target), loadable by the runtime there.
#pragma once

#include <ostream>
#include <string>

namespace tunefarm::tools {

struct BuildOptions {
  std::string file;
  std::string target = "llvm";
  std::string output;
};

// 0 with "wrote PATH: kernel NAME(signature) for TARGET" on `out`; 1 with one "tunefarm: ..." line
// on `err` when the script, lowering or code generation fails; 2 for a bad target string.
int RunBuildCommand(const BuildOptions& options, std::ostream& out, std::ostream& err);

}  // namespace tunefarm::tools
