// TempDir: a fresh private directory that disappears, contents included, with its owner.
#include "compiler/codegen/llvm/temp_dir.h"

#include <filesystem>
#include <fstream>
#include <gtest/gtest.h>

namespace tunefarm::codegen {
namespace {

TEST(TempDirTest, CreatedEmptyAndRemovedWithItsContents) {
  std::string path;
  {
    absl::StatusOr<TempDir> dir = TempDir::Create("tunefarm-test");
    ASSERT_TRUE(dir.ok()) << dir.status();
    path = dir->path();
    EXPECT_TRUE(std::filesystem::is_directory(path));
    EXPECT_TRUE(std::filesystem::is_empty(path));
    std::ofstream(path + "/file") << "x";
    TempDir moved = std::move(*dir);  // the moved-from handle must not remove anything
    EXPECT_TRUE(std::filesystem::exists(path + "/file"));
  }
  EXPECT_FALSE(std::filesystem::exists(path));
}

}  // namespace
}  // namespace tunefarm::codegen
