// Reads the shared secret of a farm (tracker, workers, clients) from a file, so it never shows
// in a process list or shell history.
#pragma once

#include <string>

#include "absl/status/statusor.h"

namespace tunefarm::client {

// The file's first line without surrounding whitespace; empty `path` gives an empty token (no
// authentication). NotFound naming the file; InvalidArgument when the token is empty.
absl::StatusOr<std::string> ReadTokenFile(const std::string& path);

}  // namespace tunefarm::client
