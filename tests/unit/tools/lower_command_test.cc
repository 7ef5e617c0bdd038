#include "tools/commands/lower_command.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <sstream>

#include "driver/script_file.h"
#include "tests/testing/files.h"

namespace tunefarm::tools {
namespace {

using ::testing::HasSubstr;
using ::testing::StartsWith;

TEST(LowerCommandTest, PrintsHeaderAndLoopNest) {
  std::string path = fixtures::WriteTempFile("scale.te", R"(
n = var("n")
A = placeholder((n, 4), name="A")
B = compute((n, 4), lambda i, j: A[i, j] * 2.0, name="B")
s = create_schedule(B)
args = [A, B]
)");
  std::ostringstream out, err;
  EXPECT_EQ(RunLowerCommand({path}, out, err), 0) << err.str();
  EXPECT_THAT(out.str(), StartsWith("// PrimFunc scale(A: float32[n, 4], B: float32[n, 4])\n"));
  EXPECT_THAT(out.str(), HasSubstr("for (i, 0, n)"));
  EXPECT_EQ(err.str(), "");
}

TEST(LowerCommandTest, ScriptErrorsAreOneLineOnStderr) {
  std::string path = fixtures::WriteTempFile("bad.te", "A = placeholder((4,), name='A')\nx = B\n");
  std::ostringstream out, err;
  EXPECT_EQ(RunLowerCommand({path}, out, err), 1);
  EXPECT_EQ(out.str(), "");
  EXPECT_EQ(err.str(), "tunefarm: " + path + ":2:5: name 'B' is not defined\n");
}

TEST(LowerCommandTest, MissingFile) {
  std::ostringstream out, err;
  EXPECT_EQ(RunLowerCommand({"/nonexistent/x.te"}, out, err), 1);
  EXPECT_EQ(err.str(), "tunefarm: cannot open /nonexistent/x.te\n");
}

TEST(ScriptFileTest, FuncNameIsTheSanitizedStem) {
  EXPECT_EQ(driver::FuncNameFor("examples/matmul_tiled.te"), "matmul_tiled");
  EXPECT_EQ(driver::FuncNameFor("/tmp/my-kernel.v2.te"), "my_kernel_v2");
  EXPECT_EQ(driver::FuncNameFor("3d.te"), "f_3d");
}

}  // namespace
}  // namespace tunefarm::tools
