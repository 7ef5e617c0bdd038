// `tunefarm model build MODEL.onnx --target T -o model.so`: one module file (kernels, graph and
// weights) that runtime/graph loads alone; prints its kernels, sizes and where the time went.
#pragma once

#include <ostream>
#include <string>

#include "driver/model_compiler.h"

namespace tunefarm::tools {

struct ModelBuildOptions {
  std::string file;
  std::string output;
  std::string target = "llvm";
  driver::ModelCompileOptions compile;
  // With --db, on this machine: each conv's algorithm settled by timing the model built both ways
  // (driver/algorithm_race.h), at `threads` (0: the runtime's default).
  bool race = false;
  double race_seconds = 600;
  int threads = 0;
};

// 0 on success; 2 for a bad --target (or --race without --db, or for another machine) and 1
// otherwise, with one "tunefarm: <reason>" line on
// `err`.
int RunModelBuildCommand(const ModelBuildOptions& options, std::ostream& out, std::ostream& err);

}  // namespace tunefarm::tools
