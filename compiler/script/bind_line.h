// The "# bind: n=64,m=32" first line of a script: the values its variables take in the examples'
// tests, and the shapes a tunable script (one that uses `cfg`) is run at by default.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>

#include "absl/status/statusor.h"

namespace tunefarm::script {

// nullopt when the first line is not a "# bind:" line; an InvalidArgument "FILE:1:COL: ..." error
// when it is one but malformed (an item other than NAME=INTEGER, a name given twice).
absl::StatusOr<std::optional<std::map<std::string, int64_t>>> ParseBindLine(
    std::string_view source, std::string_view filename);

}  // namespace tunefarm::script
