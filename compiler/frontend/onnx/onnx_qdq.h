// Post-training quantization of an ONNX model into ONNX's standard QDQ form, which this compiler
// builds as int8 kernels and other runtimes (ONNX Runtime) read: each quantizable op (Conv, Gemm
// and MatMul with a constant float weight) reads its activation through QuantizeLinear ->
// DequantizeLinear (uint8, one scale and zero point from calibrated ranges) and its weight as an
// int8 initializer behind a DequantizeLinear (symmetric, per output channel from opset 13), its
// bias as int32 at the product of the two scales; its output (or the Relu/Clip after it) is
// quantized too, so the next op reads uint8. No ONNX protobuf types here.
#pragma once

#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"

namespace tunefarm::frontend::onnx {

// The float tensors whose ranges the rewrite needs, in graph order, and the model with each of
// them added as a graph output, so that running it on calibration inputs gives their values.
struct QdqCalibrationPlan {
  std::vector<std::string> tensors;
  std::string instrumented_model;  // serialized ModelProto
};

// Errors: a file that is not a model (as the importer says), an opset below 10 (no
// QuantizeLinear), or a model with nothing to quantize.
absl::StatusOr<QdqCalibrationPlan> PlanQdqCalibration(std::string_view model_bytes);

// A calibrated range of one tensor; it is widened to hold 0 (zero must be exact in uint8).
struct QdqRange {
  double lo = 0, hi = 0;
};

struct QdqOptions {
  // One weight scale per output channel (needs opset 13; per tensor below it).
  bool per_channel_weights = true;
};

struct QdqSummary {
  int ops = 0;          // quantized Conv/Gemm/MatMul nodes
  int activations = 0;  // tensors given a QuantizeLinear -> DequantizeLinear pair
  int weights = 0;      // initializers stored as int8
  bool per_channel = false;
};

// The model in QDQ form. `ranges` must name every tensor of PlanQdqCalibration's plan
// (InvalidArgument naming the first missing one); non-finite ranges are refused.
absl::StatusOr<std::string> RewriteAsQdq(std::string_view model_bytes,
                                         const std::map<std::string, QdqRange>& ranges,
                                         const QdqOptions& options, QdqSummary* summary);

}  // namespace tunefarm::frontend::onnx
