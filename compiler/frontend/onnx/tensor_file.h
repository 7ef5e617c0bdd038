// An ONNX TensorProto file (the input_0.pb / output_0.pb of ONNX's backend test data) as an
// array. The header names no protobuf type, so the command line can read such files cheaply.
#pragma once

#include <cstdint>
#include <string>

#include "absl/status/statusor.h"
#include "runtime/ndarray.h"

namespace tunefarm::frontend::onnx {

// Errors: NotFound (no file), InvalidArgument (larger than `max_bytes`, not a TensorProto, or
// data that does not match its dims, as ArrayFromTensorProto checks), Unimplemented (a dtype
// runtime arrays do not hold).
absl::StatusOr<runtime::NDArray> ReadTensorProtoFile(const std::string& path,
                                                     int64_t max_bytes = (int64_t{1} << 31) - 1);

}  // namespace tunefarm::frontend::onnx
