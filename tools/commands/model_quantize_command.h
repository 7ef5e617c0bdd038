// `tunefarm model quantize MODEL.onnx --calibrate FILE... -o MODEL.int8.onnx`: post-training
// quantization into ONNX's QDQ form (driver/model_quantizer.h), calibrated on the given inputs.
#pragma once

#include <ostream>
#include <string>
#include <vector>

#include "driver/model_quantizer.h"

namespace tunefarm::tools {

struct ModelQuantizeOptions {
  std::string file;
  std::string output;
  // One sample per entry: FILE for a model of one input, or NAME=FILE,NAME=FILE for several
  // (.npy as NumPy writes it, or an ONNX TensorProto .pb).
  std::vector<std::string> calibrate;
  std::string method = "minmax";  // minmax or percentile
  double percentile = 99.99;
  bool per_tensor = false;  // one scale per weight instead of one per output channel
  driver::ModelCompileOptions compile;
};

// 0 with the summary on `out`; 2 for a bad --method or a --calibrate entry that does not parse;
// 1 with one "tunefarm: <reason>" line on `err` when a file cannot be read, the model cannot be
// built or a sample does not fit its inputs.
int RunModelQuantizeCommand(const ModelQuantizeOptions& options, std::ostream& out,
                            std::ostream& err);

}  // namespace tunefarm::tools
