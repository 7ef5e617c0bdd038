// An ONNX model file read and parsed with its size checked first: the importer's and the QDQ
// rewrite's one way in (a file over the limit is refused before it is read).
#pragma once

#include <onnx/onnx_pb.h>
#include <string>
#include <string_view>

#include "absl/status/statusor.h"

namespace tunefarm::frontend::onnx {

// InvalidArgument "not an ONNX model: ..." for bytes that do not parse as one, or over the limit.
absl::StatusOr<::onnx::ModelProto> ParseModel(std::string_view bytes, int64_t max_file_bytes);

// NotFound naming the path when it cannot be read; InvalidArgument when it is over the limit.
absl::StatusOr<std::string> ReadModelFile(const std::string& path, int64_t max_file_bytes);

}  // namespace tunefarm::frontend::onnx
