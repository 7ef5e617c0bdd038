// `tunefarm model build MODEL.onnx --target T -o model.so`: one module file (kernels, graph and
// weights) that runtime/graph loads alone; prints its kernels, sizes and where the time went.
#pragma once

#include <ostream>
#include <string>

#include "tools/commands/model_compiler.h"

namespace tunefarm::tools {

struct ModelBuildOptions {
  std::string file;
  std::string output;
  std::string target = "llvm";
  ModelCompileOptions compile;
};

// 0 on success; 2 for a bad --target and 1 otherwise, with one "tunefarm: <reason>" line on
// `err`.
int RunModelBuildCommand(const ModelBuildOptions& options, std::ostream& out, std::ostream& err);

}  // namespace tunefarm::tools
