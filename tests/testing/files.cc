#include "tests/testing/files.h"

#include <filesystem>
#include <fstream>
#include <gtest/gtest.h>
#include <sstream>

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
  std::string path = (std::filesystem::path(::testing::TempDir()) / name).string();
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out << text;
  EXPECT_TRUE(out.good()) << "cannot write " << path;
  return path;
}

}  // namespace tunefarm::fixtures
