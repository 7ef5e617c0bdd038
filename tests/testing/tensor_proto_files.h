// Writes arrays as ONNX TensorProto files (what `tunefarm model run` reads beside .npy), so a test
// can hand a model inputs and expected outputs of any element type.
#pragma once

#include <cstdint>
#include <fstream>
#include <onnx/onnx_pb.h>
#include <string>
#include <type_traits>
#include <vector>

namespace tunefarm::fixtures {

template <typename T>
constexpr int TensorProtoType() {
  if constexpr (std::is_same_v<T, float>) return ::onnx::TensorProto::FLOAT;
  if constexpr (std::is_same_v<T, int64_t>) return ::onnx::TensorProto::INT64;
  if constexpr (std::is_same_v<T, int32_t>) return ::onnx::TensorProto::INT32;
  if constexpr (std::is_same_v<T, uint8_t>) return ::onnx::TensorProto::UINT8;
  if constexpr (std::is_same_v<T, uint64_t>) return ::onnx::TensorProto::UINT64;
  if constexpr (std::is_same_v<T, int8_t>) return ::onnx::TensorProto::INT8;
}

// `values` in row-major order for `dims` ({} for a scalar), stored as raw little-endian bytes.
template <typename T>
void WriteTensorProtoFile(const std::string& path, const std::vector<int64_t>& dims,
                          const std::vector<T>& values) {
  ::onnx::TensorProto t;
  for (int64_t d : dims) t.add_dims(d);
  t.set_data_type(TensorProtoType<T>());
  t.set_raw_data(
      std::string(reinterpret_cast<const char*>(values.data()), values.size() * sizeof(T)));
  std::ofstream(path, std::ios::binary) << t.SerializeAsString();
}

}  // namespace tunefarm::fixtures
