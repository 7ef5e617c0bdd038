#include "tests/testing/files.h"

#include <filesystem>
#include <fstream>
#include <gtest/gtest.h>
#include <sstream>
#include <unistd.h>

namespace tunefarm::fixtures {

std::string SourcePath(const std::string& relative) {
  return (std::filesystem::path(TUNEFARM_SOURCE_DIR) / relative).string();
}

std::optional<std::string> ReadFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return std::nullopt;
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

std::string WriteTempFile(const std::string& name, const std::string& text) {
  // ctest runs tests as parallel processes sharing one temporary directory: a folder per process
  // keeps two tests that write the same name from reading each other's half-written file.
  std::filesystem::path dir =
      std::filesystem::path(::testing::TempDir()) / ("tunefarm-test-" + std::to_string(getpid()));
  std::filesystem::create_directories(dir);
  std::string path = (dir / name).string();
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out << text;
  EXPECT_TRUE(out.good()) << "cannot write " << path;
  return path;
}

}  // namespace tunefarm::fixtures
