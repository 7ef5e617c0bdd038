// `tunefarm model passes MODEL.onnx`: the graph after import and after each graph pass (the seed
// workflow of docs/models.md), then the fused groups with the time each pass took.
#pragma once

#include <cstdint>
#include <map>
#include <ostream>
#include <string>
#include <vector>

namespace tunefarm::tools {

struct ModelPassesOptions {
  std::string file;
  std::vector<std::string> disable;                          // graph passes to skip
  std::map<std::string, std::vector<int64_t>> input_shapes;  // for named dimensions
};

// 0 on success; 1 with one "tunefarm: <reason>" line on `err` when the model cannot be imported
// or a pass fails; 2 for an unknown pass name.
int RunModelPassesCommand(const ModelPassesOptions& options, std::ostream& out, std::ostream& err);

}  // namespace tunefarm::tools
