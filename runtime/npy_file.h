// NumPy's .npy files (format versions 1 to 3, little-endian, C order) as arrays: what users hand
// `tunefarm model run` as inputs and expected outputs. The header is parsed as hostile input: a
// shape whose bytes the file does not hold is refused before anything is allocated.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "absl/status/statusor.h"
#include "runtime/ndarray.h"

namespace tunefarm::runtime {

// `what` names the bytes in errors (the file's path). Accepted dtypes: float32/64, int8/16/32/64,
// uint8, bool.
absl::StatusOr<NDArray> ParseNpy(std::string_view bytes, const std::string& what);

// Reads and parses the file; NotFound when it cannot be read, InvalidArgument when it is larger
// than `max_bytes` (checked before reading).
absl::StatusOr<NDArray> ReadNpyFile(const std::string& path,
                                    uint64_t max_bytes = uint64_t{1} << 34);

}  // namespace tunefarm::runtime
