// ONNX import: a model file (opsets 1 to 21) into a graph::Graph. The ONNX protobuf classes stay
// behind this header.
#pragma once

#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "compiler/graph/graph.h"
#include "runtime/ndarray.h"

namespace tunefarm::frontend::onnx {

struct OnnxImportOptions {
  // Shapes for graph inputs, by name: required for inputs with symbolic dimensions ("batch"),
  // and they override the model's own.
  std::map<std::string, std::vector<int64_t>> input_shapes;
  // Graph inputs to import as these constants instead (ONNX backend tests pass parameters such as
  // Reshape's shape or Clip's bounds as inputs; a model's parameters must be known at import).
  std::map<std::string, runtime::NDArray> constant_inputs;
  // A file larger than this is refused before it is read. Protobuf cannot parse 2 GiB or more;
  // models that large keep their weights in external data, which is not supported.
  int64_t max_file_bytes = (int64_t{1} << 31) - 1;
};

// Errors: NotFound (no file), InvalidArgument (not an ONNX model, malformed, hostile: sizes that
// the data does not back, a cycle, an undefined value), Unimplemented (ops, attributes or
// features the importer does not handle; every unsupported node is listed in one message, with
// its name and the model's opset, before anything else is imported).
absl::StatusOr<graph::Graph> ImportOnnxFile(const std::string& path,
                                            const OnnxImportOptions& options = {});
absl::StatusOr<graph::Graph> ImportOnnxBytes(std::string_view bytes,
                                             const OnnxImportOptions& options = {});

// The model's graph inputs that are not initializers, in the file's order: the order of ONNX test
// data's input_N.pb files. Errors as ImportOnnxFile's for a file that is not a model.
absl::StatusOr<std::vector<std::string>> ReadOnnxInputNames(
    const std::string& path, int64_t max_file_bytes = (int64_t{1} << 31) - 1);

// Those of them that an op reads as a parameter, which must be a constant at import (Reshape's
// shape, Resize's scales, Slice's starts, a Reduce's axes ...): bind them through
// OnnxImportOptions::constant_inputs.
absl::StatusOr<std::set<std::string>> ReadOnnxParameterInputs(
    const std::string& path, int64_t max_file_bytes = (int64_t{1} << 31) - 1);

}  // namespace tunefarm::frontend::onnx
