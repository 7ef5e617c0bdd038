#include "compiler/frontend/onnx/tensor_file.h"

#include <filesystem>
#include <fstream>
#include <system_error>

#include "absl/strings/str_cat.h"
#include "compiler/frontend/onnx/tensor_proto.h"

namespace tunefarm::frontend::onnx {

absl::StatusOr<runtime::NDArray> ReadTensorProtoFile(const std::string& path, int64_t max_bytes) {
  std::error_code ec;
  const std::uintmax_t size = std::filesystem::file_size(path, ec);
  if (ec) return absl::NotFoundError(absl::StrCat("cannot read '", path, "': ", ec.message()));
  if (size > static_cast<std::uintmax_t>(max_bytes)) {
    return absl::InvalidArgumentError(absl::StrCat(
        "'", path, "' is ", size, " bytes; a tensor file may hold at most ", max_bytes));
  }
  std::ifstream in(path, std::ios::binary);
  std::string bytes(size, '\0');
  in.read(bytes.data(), static_cast<std::streamsize>(size));
  if (!in) return absl::NotFoundError(absl::StrCat("cannot read '", path, "'"));
  ::onnx::TensorProto tensor;
  if (!tensor.ParseFromString(bytes)) {
    return absl::InvalidArgumentError(absl::StrCat("'", path, "' is not an ONNX TensorProto"));
  }
  return ArrayFromTensorProto(tensor, absl::StrCat("'", path, "'"));
}

}  // namespace tunefarm::frontend::onnx
