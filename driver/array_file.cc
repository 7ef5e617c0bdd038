#include "driver/array_file.h"

#include "compiler/frontend/onnx/tensor_file.h"
#include "runtime/npy_file.h"

namespace tunefarm::driver {

absl::StatusOr<runtime::NDArray> ReadArrayFile(const std::string& path) {
  if (path.size() >= 4 && path.compare(path.size() - 4, 4, ".npy") == 0) {
    return runtime::ReadNpyFile(path);
  }
  return frontend::onnx::ReadTensorProtoFile(path);
}

}  // namespace tunefarm::driver
