// LinkSharedLibrary: a bad input is reported with the linker's own diagnostics.
#include "compiler/codegen/llvm/linker.h"

#include <fstream>
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <unistd.h>

namespace tunefarm::codegen {
namespace {

using ::testing::HasSubstr;

TEST(LinkerTest, AFailureCarriesTheLinkersMessage) {
  const std::string dir = ::testing::TempDir();
  const std::string object = dir + "/not_an_object_" + std::to_string(getpid()) + ".o";
  std::ofstream(object) << "this is not ELF";
  absl::Status s = LinkSharedLibrary({object}, dir + "/never.so", dir + "/link.log");
  ASSERT_FALSE(s.ok());
  EXPECT_THAT(s.message(), HasSubstr("linking " + dir + "/never.so failed"));
  EXPECT_THAT(s.message(), HasSubstr("exit status 1"));
  EXPECT_THAT(s.message(), HasSubstr(object));  // lld names the file it could not read
  unlink(object.c_str());
}

}  // namespace
}  // namespace tunefarm::codegen
