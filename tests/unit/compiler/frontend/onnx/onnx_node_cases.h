// ONNX's own backend node test cases (Debian libonnx-testdata) that the graph level covers: which
// cases are ours to run, and reading their protobuf files. Shared by the importer's shape check
// and the numerical check of every op.
#pragma once

#include <filesystem>
#include <optional>
#include <set>
#include <string>

#include "onnx/onnx_pb.h"
#include "tests/testing/files.h"

namespace tunefarm::frontend::onnx::testing {

inline constexpr const char* kNodeTests = "/usr/share/libonnx-testdata/data/node";

// The ONNX ops of issue 15's graph level.
inline const std::set<std::string>& ListedOps() {
  static const std::set<std::string> ops = {"Conv",          "Gemm",
                                            "MatMul",        "BatchNormalization",
                                            "Relu",          "Clip",
                                            "Sigmoid",       "HardSwish",
                                            "HardSigmoid",   "Tanh",
                                            "Exp",           "Add",
                                            "Sub",           "Mul",
                                            "Div",           "MaxPool",
                                            "AveragePool",   "GlobalAveragePool",
                                            "GlobalMaxPool", "Flatten",
                                            "Reshape",       "Transpose",
                                            "Concat",        "Pad",
                                            "Slice",         "Split",
                                            "Squeeze",       "Unsqueeze",
                                            "Softmax",       "LRN",
                                            "Identity",      "Dropout"};
  return ops;
}

inline bool ReadProto(const std::filesystem::path& path, google::protobuf::MessageLite& message) {
  std::optional<std::string> bytes = fixtures::ReadFile(path.string());
  return bytes && message.ParseFromString(*bytes);
}

// A float32 case of listed ops only (int64 inputs allowed: they carry parameters).
inline bool IsListedFloatCase(const ::onnx::ModelProto& model) {
  if (model.graph().node_size() == 0) return false;
  for (const auto& node : model.graph().node()) {
    if (!ListedOps().count(node.op_type())) return false;
  }
  for (const auto& out : model.graph().output()) {
    if (out.type().tensor_type().elem_type() != ::onnx::TensorProto::FLOAT) return false;
  }
  for (const auto& in : model.graph().input()) {
    int t = in.type().tensor_type().elem_type();
    if (t != ::onnx::TensorProto::FLOAT && t != ::onnx::TensorProto::INT64) return false;
  }
  return true;
}

}  // namespace tunefarm::frontend::onnx::testing
