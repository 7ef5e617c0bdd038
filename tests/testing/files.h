// Files for tests: paths in the source tree, reading a file whole, and writing a scratch file
// (a script under test) into the test's temporary directory.
#pragma once

#include <optional>
#include <string>

namespace tunefarm::fixtures {

// `relative` under the source tree (TUNEFARM_SOURCE_DIR, set by CMake for every test binary).
std::string SourcePath(const std::string& relative);

// The whole file, or nullopt when it cannot be read.
std::optional<std::string> ReadFile(const std::string& path);

// Writes `text` to `name` in the test temporary directory and returns the file's path.
std::string WriteTempFile(const std::string& name, const std::string& text);

}  // namespace tunefarm::fixtures
