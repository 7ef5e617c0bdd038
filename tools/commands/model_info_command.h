// `tunefarm model info MODEL.onnx`: what a model is — inputs, outputs, op counts, parameters and
// FLOPs — as the graph level sees it after import.
#pragma once

#include <map>
#include <ostream>
#include <string>
#include <vector>

namespace tunefarm::tools {

struct ModelInfoOptions {
  std::string file;
  std::map<std::string, std::vector<int64_t>> input_shapes;  // for named dimensions
};

// 0 on success (the summary on `out`); 1 with one "tunefarm: <reason>" line on `err` when the
// model cannot be imported.
int RunModelInfoCommand(const ModelInfoOptions& options, std::ostream& out, std::ostream& err);

}  // namespace tunefarm::tools
