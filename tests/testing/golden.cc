#include "tests/testing/golden.h"

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <gtest/gtest.h>

#include "tests/testing/files.h"

namespace tunefarm::fixtures {

void ExpectMatchesGolden(const std::string& actual, const std::string& golden_path) {
  const char* update = std::getenv("TUNEFARM_UPDATE_GOLDEN");
  if (update != nullptr && std::string(update) == "1") {
    std::filesystem::create_directories(std::filesystem::path(golden_path).parent_path());
    std::ofstream out(golden_path, std::ios::binary | std::ios::trunc);
    out << actual;
    EXPECT_TRUE(out.good()) << "cannot write " << golden_path;
    return;
  }
  std::optional<std::string> expected = ReadFile(golden_path);
  ASSERT_TRUE(expected.has_value())
      << "no golden file " << golden_path << "; create it with TUNEFARM_UPDATE_GOLDEN=1";
  EXPECT_EQ(actual, *expected) << "differs from " << golden_path
                               << " (TUNEFARM_UPDATE_GOLDEN=1 rewrites it)";
}

}  // namespace tunefarm::fixtures
