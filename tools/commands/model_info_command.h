// `tunefarm model info MODEL.onnx`: what a model is — inputs, outputs, op counts, parameters and
// FLOPs — as the graph level sees it after import.
#pragma once

#include <ostream>
#include <string>

namespace tunefarm::tools {

struct ModelInfoOptions {
  std::string file;
};

// 0 on success (the summary on `out`); 1 with one "tunefarm: <reason>" line on `err` when the
// model cannot be imported.
int RunModelInfoCommand(const ModelInfoOptions& options, std::ostream& out, std::ostream& err);

}  // namespace tunefarm::tools
