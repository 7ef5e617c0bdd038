// `tunefarm model run MODEL.onnx|model.so --input NAME=FILE ... [--expect FILE ...] [--time]
// [--threads N]`: runs a model once on the given inputs (ONNX TensorProto .pb or NumPy .npy;
// inputs not given are random), prints the first outputs, checks them against expected files
// and times the run.
#pragma once

#include <ostream>
#include <string>
#include <vector>

#include "driver/model_compiler.h"

namespace tunefarm::tools {

struct ModelRunOptions {
  std::string model;
  std::vector<std::string> inputs;  // NAME=FILE, or FILE for the next input in order
  std::vector<std::string> expect;  // one file per output, in order
  bool time = false;
  bool profile = false;  // print each kernel's median time after --time's runs
  int threads = 0;       // 0: the runtime's default
  // An output matches when max |got - want| <= rtol * max |want| + atol.
  double rtol = 1e-4;
  double atol = 1e-5;
  std::string target = "llvm";          // for an .onnx model
  driver::ModelCompileOptions compile;  // for an .onnx model
};

// 0 when the run succeeded (and every expected output matched); 2 for a bad --target; 1 with a
// one-line reason on `err` when something cannot be read, built or run, or an output does not
// match.
int RunModelRunCommand(const ModelRunOptions& options, std::ostream& out, std::ostream& err);

}  // namespace tunefarm::tools
