// ONNX's own backend node test cases (Debian libonnx-testdata) that the graph level covers: which
// cases are ours to run, and reading their protobuf files. Shared by the importer's shape check
// and the numerical check of every op.
#pragma once

#include <filesystem>
#include <map>
#include <optional>
#include <set>
#include <string>

#include "compiler/frontend/onnx/onnx_importer.h"
#include "compiler/frontend/onnx/tensor_file.h"
#include "onnx/onnx_pb.h"
#include "tests/testing/files.h"

namespace tunefarm::frontend::onnx::testing {

inline constexpr const char* kNodeTests = "/usr/share/libonnx-testdata/data/node";
// Every folder of cases: ONNX's node tests, PyTorch's converted modules (opset 6) and operators,
// and the small multi-node models.
inline constexpr const char* kCaseFolders[] = {
    "/usr/share/libonnx-testdata/data/node", "/usr/share/libonnx-testdata/data/pytorch-converted",
    "/usr/share/libonnx-testdata/data/pytorch-operator", "/usr/share/libonnx-testdata/data/simple"};

// The ONNX ops the graph level covers (the importer's converters, op_support.cc).
inline const std::set<std::string>& ListedOps() {
  static const std::set<std::string> ops = {
      "Conv", "Gemm", "MatMul", "BatchNormalization", "Relu", "Clip", "Sigmoid", "HardSwish",
      "HardSigmoid", "Tanh", "Exp", "Add", "Sub", "Mul", "Div", "MaxPool", "AveragePool",
      "GlobalAveragePool", "GlobalMaxPool", "Flatten", "Reshape", "Transpose", "Concat", "Pad",
      "Slice", "Split", "Squeeze", "Unsqueeze", "Softmax", "LRN", "Identity", "Dropout",
      // Round 3: math, reductions, normalizations, indexing.
      "Abs", "Neg", "Sign", "Floor", "Ceil", "Round", "Sqrt", "Reciprocal", "Log", "Erf",
      "Softplus", "Softsign", "Mish", "Elu", "Selu", "Celu", "LeakyRelu", "ThresholdedRelu", "Gelu",
      "Pow", "Mod", "Trilu", "PRelu", "Max", "Min", "Sum", "Mean", "ReduceSum", "ReduceMean",
      "ReduceMax", "ReduceMin", "ReduceProd", "ReduceL1", "ReduceL2", "ReduceSumSquare",
      "ReduceLogSum", "ReduceLogSumExp", "LogSoftmax", "LayerNormalization",
      "InstanceNormalization", "MeanVarianceNormalization", "Gather", "Expand", "Tile", "Shape",
      "Size", "ConstantOfShape", "Range", "Cast", "Constant", "Sin", "Cos", "Tan", "Sinh", "Cosh",
      "Asin", "Acos", "Atan", "Asinh", "Acosh", "Atanh", "Shrink", "Equal", "Less", "LessOrEqual",
      "Greater", "GreaterOrEqual", "And", "Or", "Xor", "Not", "Where", "Resize", "Upsample",
      "GatherElements", "DepthToSpace", "Hardmax", "SpaceToDepth"};
  return ops;
}

inline bool ReadProto(const std::filesystem::path& path, google::protobuf::MessageLite& message) {
  std::optional<std::string> bytes = fixtures::ReadFile(path.string());
  return bytes && message.ParseFromString(*bytes);
}

// A float32 case of any ops: float32 outputs, float32 or int64 inputs (which carry parameters).
inline bool IsFloatCase(const ::onnx::ModelProto& model) {
  if (model.graph().node_size() == 0) return false;
  for (const auto& out : model.graph().output()) {
    if (out.type().tensor_type().elem_type() != ::onnx::TensorProto::FLOAT) return false;
  }
  for (const auto& in : model.graph().input()) {
    int t = in.type().tensor_type().elem_type();
    if (t != ::onnx::TensorProto::FLOAT && t != ::onnx::TensorProto::INT64) return false;
  }
  return true;
}

// A float32 case of listed ops only.
inline bool IsListedFloatCase(const ::onnx::ModelProto& model) {
  for (const auto& node : model.graph().node()) {
    if (!ListedOps().count(node.op_type())) return false;
  }
  return IsFloatCase(model);
}

// The inputs of a case's test_data_set_0 by graph input name: parameters (int64 or scalar:
// Reshape's shape, Clip's bounds), which must be constants at import, into
// `options.constant_inputs`; the rest into `data` (when given).
inline absl::Status ReadCaseInputs(const std::filesystem::path& dir, OnnxImportOptions& options,
                                   std::map<std::string, runtime::NDArray>* data = nullptr) {
  absl::StatusOr<std::vector<std::string>> names =
      ReadOnnxInputNames((dir / "model.onnx").string());
  if (!names.ok()) return names.status();
  absl::StatusOr<std::set<std::string>> parameters =
      ReadOnnxParameterInputs((dir / "model.onnx").string());
  if (!parameters.ok()) return parameters.status();
  for (size_t i = 0; i < names->size(); ++i) {
    absl::StatusOr<runtime::NDArray> a = ReadTensorProtoFile(
        (dir / "test_data_set_0" / ("input_" + std::to_string(i) + ".pb")).string());
    if (!a.ok()) return a.status();
    const bool parameter =
        a->dtype().code == kDLInt || a->ndim() == 0 || parameters->count((*names)[i]) != 0;
    if (parameter) {
      options.constant_inputs.emplace((*names)[i], *std::move(a));
    } else if (data != nullptr) {
      data->emplace((*names)[i], *std::move(a));
    }
  }
  return absl::OkStatus();
}

}  // namespace tunefarm::frontend::onnx::testing
