#include "compiler/frontend/onnx/model_file.h"

#include <filesystem>
#include <fstream>
#include <google/protobuf/io/coded_stream.h>

#include "absl/strings/str_cat.h"

namespace tunefarm::frontend::onnx {

using ::onnx::ModelProto;

absl::StatusOr<ModelProto> ParseModel(std::string_view bytes, int64_t max_file_bytes) {
  if (static_cast<int64_t>(bytes.size()) > max_file_bytes ||
      bytes.size() > static_cast<size_t>(INT32_MAX)) {
    return absl::InvalidArgumentError(
        absl::StrCat("the model is ", bytes.size(), " bytes; at most ", max_file_bytes,
                     " are read (weights in external files are not supported)"));
  }
  ModelProto model;
  google::protobuf::io::CodedInputStream in(reinterpret_cast<const uint8_t*>(bytes.data()),
                                            static_cast<int>(bytes.size()));
  in.SetTotalBytesLimit(static_cast<int>(bytes.size()));
  if (!model.ParseFromCodedStream(&in) || !in.ConsumedEntireMessage()) {
    return absl::InvalidArgumentError(
        "not an ONNX model: the file does not parse as one (truncated, or another format)");
  }
  if (model.ir_version() <= 0 || !model.has_graph()) {
    return absl::InvalidArgumentError("not an ONNX model: it has no IR version or no graph");
  }
  return model;
}

absl::StatusOr<std::string> ReadModelFile(const std::string& path, int64_t max_file_bytes) {
  std::error_code ec;
  uintmax_t size = std::filesystem::file_size(path, ec);
  if (ec) return absl::NotFoundError(absl::StrCat("cannot open ", path, ": ", ec.message()));
  if (size > static_cast<uintmax_t>(max_file_bytes)) {
    return absl::InvalidArgumentError(
        absl::StrCat(path, " is ", size, " bytes; at most ", max_file_bytes,
                     " are read (weights in external files are not supported)"));
  }
  std::ifstream file(path, std::ios::binary);
  std::string bytes(size, '\0');
  if (!file || !file.read(bytes.data(), static_cast<std::streamsize>(size))) {
    return absl::NotFoundError(absl::StrCat("cannot read ", path));
  }
  return bytes;
}

}  // namespace tunefarm::frontend::onnx
