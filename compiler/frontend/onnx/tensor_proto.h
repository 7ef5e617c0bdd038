// ONNX TensorProto (initializers, Constant values) into runtime arrays, with every size the file
// claims checked against the bytes it holds before anything is allocated.
#pragma once

#include <dlpack/dlpack.h>
#include <onnx/onnx_pb.h>
#include <string>

#include "absl/status/statusor.h"
#include "runtime/ndarray.h"

namespace tunefarm::frontend::onnx {

// The dtype of an ONNX TensorProto.DataType code; strings and complex numbers are Unimplemented.
absl::StatusOr<DLDataType> DataTypeFromOnnx(int32_t code);

// The tensor's data as an array. `what` names it in errors ("initializer 'conv1.weight'").
// Refuses external data, negative or overflowing dims, and data whose size is not exactly what
// the dims and dtype make.
absl::StatusOr<runtime::NDArray> ArrayFromTensorProto(const ::onnx::TensorProto& tensor,
                                                      const std::string& what);

}  // namespace tunefarm::frontend::onnx
