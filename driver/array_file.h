// A tensor read from a file given on a command line or in a test case: .npy as NumPy writes it,
// anything else as an ONNX TensorProto (the backend test cases' input_N.pb and output_N.pb).
#pragma once

#include <string>

#include "absl/status/statusor.h"
#include "runtime/ndarray.h"

namespace tunefarm::driver {

// Errors: the reader's (a missing file, a header that does not parse, sizes past the file's).
absl::StatusOr<runtime::NDArray> ReadArrayFile(const std::string& path);

}  // namespace tunefarm::driver
