// Post-training quantization of an ONNX model (`tunefarm model quantize`): the float model is
// built here with its quantizable activations as extra outputs and run on calibration inputs,
// each activation's range is taken (min-max, or the percentiles of a histogram, which ignore
// rare outliers), and the model is written in ONNX's QDQ form (frontend/onnx/onnx_qdq.h). The
// float and the quantized model are then built and run on the calibration inputs, so the report
// says how far the int8 model's first output moved.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "compiler/frontend/onnx/onnx_qdq.h"
#include "driver/model_compiler.h"
#include "runtime/ndarray.h"

namespace tunefarm::driver {

enum class CalibrationMethod { kMinMax, kPercentile };

struct QuantizeModelOptions {
  // One input set per calibration sample, by input name; every model input must be given.
  std::vector<std::map<std::string, runtime::NDArray>> calibration;
  CalibrationMethod method = CalibrationMethod::kMinMax;
  double percentile = 99.99;  // kPercentile: the range keeps this share of each tensor's values
  frontend::onnx::QdqOptions qdq;
  ModelCompileOptions compile;  // input shapes of a model with symbolic ones
};

struct QuantizeModelReport {
  frontend::onnx::QdqSummary summary;
  int samples = 0;
  // The quantized model's first output against the float model's on the calibration inputs:
  // the largest difference relative to the float output's largest magnitude, and (for an
  // output of rows, e.g. class scores) how many rows keep their arg-max.
  double max_relative_difference = 0;
  int top1_kept = 0, top1_rows = 0;
};

// Writes the QDQ model to `output_path`. Errors: no calibration sample, an input missing or of
// the wrong shape or dtype (naming it), what the model's import or build says, a percentile
// outside (50, 100].
absl::StatusOr<QuantizeModelReport> QuantizeModel(const std::string& model_path,
                                                  const std::string& output_path,
                                                  const QuantizeModelOptions& options);

}  // namespace tunefarm::driver
