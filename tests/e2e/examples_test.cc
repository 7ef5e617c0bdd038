// Every script in examples/ lowers, matches its golden IR (tests/e2e/golden/<name>.txt) and runs
// on the interpreter and through LLVM with the values of its "# bind:" first line, agreeing with
// the unscheduled definition. TUNEFARM_UPDATE_GOLDEN=1 rewrites the golden files.
#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <sstream>

#include "absl/strings/match.h"
#include "absl/strings/strip.h"
#include "tests/testing/files.h"
#include "tests/testing/golden.h"
#include "tools/commands/lower_command.h"
#include "tools/commands/run_command.h"

namespace tunefarm {
namespace {

using ::testing::EndsWith;
using ::testing::HasSubstr;

std::vector<std::string> ExampleNames() {
  std::vector<std::string> names;
  for (const auto& entry : std::filesystem::directory_iterator(fixtures::SourcePath("examples"))) {
    if (entry.path().extension() == ".te") names.push_back(entry.path().stem().string());
  }
  std::sort(names.begin(), names.end());
  return names;
}

std::string ExamplePath(const std::string& name) {
  return fixtures::SourcePath("examples/" + name + ".te");
}

// The values after "# bind:" on the first line ("" when it binds nothing).
std::string BindLine(const std::string& path) {
  std::string text = fixtures::ReadFile(path).value_or("");
  std::string first = text.substr(0, text.find('\n'));
  absl::string_view rest(first);
  EXPECT_TRUE(absl::ConsumePrefix(&rest, "# bind:")) << path << " must start with '# bind:'";
  return std::string(absl::StripAsciiWhitespace(rest));
}

class ExampleTest : public ::testing::TestWithParam<std::string> {};

TEST_P(ExampleTest, LowersToItsGoldenIr) {
  std::ostringstream out, err;
  ASSERT_EQ(tools::RunLowerCommand({ExamplePath(GetParam())}, out, err), 0) << err.str();
  fixtures::ExpectMatchesGolden(out.str(),
                                fixtures::SourcePath("tests/e2e/golden/" + GetParam() + ".txt"));
}

TEST_P(ExampleTest, RunsAndMatchesTheUnscheduledDefinition) {
  tools::RunOptions options;
  options.file = ExamplePath(GetParam());
  options.bind = BindLine(options.file);
  std::ostringstream out, err;
  EXPECT_EQ(tools::RunRunCommand(options, out, err), 0) << err.str() << out.str();
  EXPECT_THAT(out.str(), EndsWith("\nok\n"));
  EXPECT_EQ(err.str(), "");
}

// The same through LLVM on this machine. GPU-bound schedules cannot run on a CPU target: they are
// refused with a reason instead of being run wrongly.
TEST_P(ExampleTest, RunsUnderLlvmAndMatches) {
  tools::RunOptions options;
  options.file = ExamplePath(GetParam());
  options.bind = BindLine(options.file);
  options.target = "llvm";
  std::ostringstream out, err;
  int code = tools::RunRunCommand(options, out, err);
  if (absl::StrContains(GetParam(), "gpu")) {
    EXPECT_EQ(code, 1);
    EXPECT_THAT(err.str(), HasSubstr("GPU")) << err.str();
    return;
  }
  EXPECT_EQ(code, 0) << err.str() << out.str();
  EXPECT_THAT(out.str(), EndsWith("\nok\n"));
  EXPECT_EQ(err.str(), "");
}

INSTANTIATE_TEST_SUITE_P(Examples, ExampleTest, ::testing::ValuesIn(ExampleNames()),
                         [](const auto& info) { return info.param; });

TEST(ExamplesTest, TheDocumentedExamplesExist) {
  std::vector<std::string> names = ExampleNames();
  for (const char* name :
       {"elementwise_mul", "split_factor", "split_nparts", "tile", "tile_fuse", "tile_reorder",
        "split_bind_gpu", "matmul_tiled", "conv2d_gpu", "reduction_max", "elementwise_chain"}) {
    EXPECT_NE(std::find(names.begin(), names.end(), name), names.end()) << name;
  }
}

// The check has teeth: without barriers the conv2d threads race on shared memory, and `run`
// reports the first wrong element (the reference is lowered with every pass).
TEST(ExamplesTest, RunReportsAMismatch) {
  setenv("TUNEFARM_DISABLE_PASS", "thread_sync", 1);
  tools::RunOptions options;
  options.file = ExamplePath("conv2d_gpu");
  std::ostringstream out, err;
  int code = tools::RunRunCommand(options, out, err);
  unsetenv("TUNEFARM_DISABLE_PASS");
  EXPECT_EQ(code, 1) << err.str();
  EXPECT_THAT(out.str(), HasSubstr("mismatch: B["));
}

}  // namespace
}  // namespace tunefarm
