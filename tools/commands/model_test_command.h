// `tunefarm model test CASE_DIR...`: ONNX backend test cases (a folder with model.onnx and
// test_data_set_*/input_N.pb, output_N.pb) built into modules and run; one line per case and a
// summary "N passed, N failed, N unsupported".
#pragma once

#include <ostream>
#include <string>
#include <vector>

namespace tunefarm::tools {

struct ModelTestOptions {
  std::vector<std::string> cases;
  std::string target = "llvm";
  // An element matches when |got - want| <= atol + rtol * |want| (ONNX's backend test rule).
  double rtol = 1e-4;
  double atol = 1e-5;
};

// 0 when every case passed; 1 when any failed or is unsupported (ops or features the importer
// does not handle); 2 for a bad --target.
int RunModelTestCommand(const ModelTestOptions& options, std::ostream& out, std::ostream& err);

}  // namespace tunefarm::tools
