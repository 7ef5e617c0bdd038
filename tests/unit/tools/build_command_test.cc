#include "tools/commands/build_command.h"

#include <filesystem>
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <sstream>

#include "runtime/module.h"
#include "tests/testing/files.h"
#include "tests/unit/tools/command_outcome.h"

namespace tunefarm::tools {
namespace {

using ::testing::HasSubstr;
using ::testing::StartsWith;

CommandOutcome Invoke(const BuildOptions& options) {
  std::ostringstream out, err;
  int code = RunBuildCommand(options, out, err);
  return {code, out.str(), err.str()};
}

std::string TempLibrary(const std::string& name) {
  return (std::filesystem::temp_directory_path() /
          (name + "_" + std::to_string(::getpid()) + ".so"))
      .string();
}

TEST(BuildCommandTest, HostLibraryLoadsWithItsSymbolicSignature) {
  BuildOptions options;
  options.file = fixtures::SourcePath("examples/matmul_tiled.te");
  options.output = TempLibrary("matmul_tiled");
  CommandOutcome r = Invoke(options);
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_THAT(r.out, StartsWith("wrote " + options.output +
                                ": kernel matmul_tiled(A: float32[n, n], B: float32[n, n], "
                                "C: float32[n, n]) for llvm -mtriple="));
  absl::StatusOr<std::shared_ptr<runtime::Module>> module = runtime::LoadModule(options.output);
  ASSERT_TRUE(module.ok()) << module.status();
  EXPECT_EQ((*module)->FunctionNames(), std::vector<std::string>{"matmul_tiled"});
  std::filesystem::remove(options.output);
}

TEST(BuildCommandTest, CrossLibraryIsAnAarch64SharedObject) {
  BuildOptions options;
  options.file = fixtures::SourcePath("examples/split_factor.te");
  options.target = "llvm -mtriple=aarch64-linux-gnu -mattr=+neon";
  options.output = TempLibrary("split_factor_a64");
  CommandOutcome r = Invoke(options);
  ASSERT_EQ(r.code, 0) << r.err;
  std::optional<std::string> bytes = fixtures::ReadFile(options.output);
  ASSERT_TRUE(bytes.has_value());
  ASSERT_GT(bytes->size(), 20u);
  EXPECT_EQ(bytes->substr(0, 4),
            "\x7f"
            "ELF");
  EXPECT_EQ(static_cast<unsigned char>((*bytes)[18]), 183);  // e_machine EM_AARCH64
  std::filesystem::remove(options.output);
}

TEST(BuildCommandTest, BadTargetIsAUsageErrorListingWhatIsAccepted) {
  BuildOptions options;
  options.file = fixtures::SourcePath("examples/split_factor.te");
  options.target = "llvm -mtriple=riscv64-linux-gnu";
  options.output = TempLibrary("never");
  CommandOutcome r = Invoke(options);
  EXPECT_EQ(r.code, 2);
  EXPECT_THAT(r.err, HasSubstr("aarch64"));
  EXPECT_FALSE(std::filesystem::exists(options.output));
}

TEST(BuildCommandTest, MissingOutputIsAUsageError) {
  BuildOptions options;
  options.file = fixtures::SourcePath("examples/split_factor.te");
  CommandOutcome r = Invoke(options);
  EXPECT_EQ(r.code, 2);
  EXPECT_THAT(r.err, HasSubstr("-o"));
}

TEST(BuildCommandTest, ScriptErrorIsReportedWithItsFile) {
  BuildOptions options;
  options.file = fixtures::WriteTempFile("broken.te", "n = var('n')\nA = placeholdr((n,))\n");
  options.output = TempLibrary("broken");
  CommandOutcome r = Invoke(options);
  EXPECT_EQ(r.code, 1);
  EXPECT_THAT(r.err, HasSubstr("broken.te:2"));
}

}  // namespace
}  // namespace tunefarm::tools
