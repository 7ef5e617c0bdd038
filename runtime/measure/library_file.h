// The bytes of a built library, for sending it to whoever measures it (the tracker to a worker, a
// builder to the tracker): read whole, and refused before reading when over a size limit.
#pragma once

#include <cstdint>
#include <string>

#include "absl/status/statusor.h"

namespace tunefarm::runtime::measure {

// NotFound when it cannot be read, ResourceExhausted when it has more than `max_bytes` bytes,
// DataLoss when it shrank while being read; each names the file.
absl::StatusOr<std::string> ReadLibraryFile(const std::string& path, int64_t max_bytes);

}  // namespace tunefarm::runtime::measure
