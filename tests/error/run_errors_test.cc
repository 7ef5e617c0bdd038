// User errors of `tunefarm run`: the exit code and the one-line message on stderr.
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <sstream>

#include "tests/testing/files.h"
#include "tools/commands/run_command.h"

namespace tunefarm::tools {
namespace {

using ::testing::HasSubstr;

constexpr const char* kTwoVars = R"(
n = var("n")
m = var("m")
A = placeholder((n, m), name="A")
B = compute((n, m), lambda i, j: A[i, j] + 1.0, name="B")
s = create_schedule(B)
args = [A, B]
)";

int RunWithBind(const std::string& bind, std::string* err, const std::string& target = "interp") {
  RunOptions options;
  options.file = fixtures::WriteTempFile("two_vars.te", kTwoVars);
  options.bind = bind;
  options.target = target;
  std::ostringstream out, err_stream;
  int code = RunRunCommand(options, out, err_stream);
  *err = err_stream.str();
  return code;
}

TEST(RunErrorsTest, UnknownBindNameListsTheScriptsVariables) {
  std::string err;
  EXPECT_EQ(RunWithBind("n=4,k=5,m=3", &err), 1);
  EXPECT_EQ(err, "tunefarm: --bind names unknown variable 'k'; the script's variables are: n, m\n");
}

TEST(RunErrorsTest, MalformedBind) {
  std::string err;
  EXPECT_EQ(RunWithBind("n=4,m", &err), 2);
  EXPECT_EQ(err,
            "tunefarm: malformed --bind item 'm': expected NAME=INTEGER, as in "
            "--bind n=67,m=45\n");
  EXPECT_EQ(RunWithBind("n=four", &err), 2);
  EXPECT_THAT(err, HasSubstr("malformed --bind item 'n=four'"));
}

TEST(RunErrorsTest, MissingBind) {
  std::string err;
  EXPECT_EQ(RunWithBind("n=4", &err), 1);
  EXPECT_EQ(err, "tunefarm: variable m (in the shape of A) needs a value: --bind m=...\n");
}

TEST(RunErrorsTest, NegativeShape) {
  std::string err;
  EXPECT_EQ(RunWithBind("n=-4,m=2", &err), 1);
  EXPECT_THAT(err, HasSubstr("shape of A dimension 0 (n) is -4"));
}

TEST(RunErrorsTest, UnknownTarget) {
  std::string err;
  EXPECT_EQ(RunWithBind("n=4,m=2", &err, "vulkan"), 2);
  EXPECT_THAT(err, HasSubstr("bad target 'vulkan'"));
  EXPECT_THAT(err, HasSubstr("-mtriple"));
  EXPECT_THAT(err, HasSubstr("cuda -arch=sm_XY"));
  EXPECT_THAT(err, HasSubstr("(run also accepts: interp)"));
}

TEST(RunErrorsTest, CpuScheduleOnCudaSaysWhatToBind) {
  std::string err;
  EXPECT_EQ(RunWithBind("n=4,m=2", &err, "cuda"), 1);
  EXPECT_THAT(err, HasSubstr("outside every thread-bound region"));
  EXPECT_THAT(err, HasSubstr("blockIdx/threadIdx"));
}

TEST(RunErrorsTest, UnknownCpu) {
  std::string err;
  EXPECT_EQ(RunWithBind("n=4,m=2", &err, "llvm -mcpu=pentium9000"), 2);
  EXPECT_THAT(err, HasSubstr("pentium9000"));
}

TEST(RunErrorsTest, CrossTargetCannotRunHere) {
  std::string err;
  EXPECT_EQ(RunWithBind("n=4,m=2", &err, "llvm -mtriple=aarch64-linux-gnu -mattr=+neon"), 1);
  EXPECT_THAT(err, HasSubstr("tunefarm build"));
}

TEST(RunErrorsTest, ThreadBindingOnTheCpu) {
  RunOptions options;
  options.file = fixtures::SourcePath("examples/split_bind_gpu.te");
  options.bind = "n=100";
  options.target = "llvm";
  std::ostringstream out, err;
  EXPECT_EQ(RunRunCommand(options, out, err), 1);
  EXPECT_THAT(err.str(), HasSubstr("blockIdx.x on a CPU target"));
}

TEST(RunErrorsTest, NegativeThreads) {
  RunOptions options;
  options.file = fixtures::SourcePath("examples/split_factor.te");
  options.threads = -1;
  std::ostringstream out, err;
  EXPECT_EQ(RunRunCommand(options, out, err), 2);
  EXPECT_THAT(err.str(), HasSubstr("--threads"));
}

TEST(RunErrorsTest, ScriptErrorsCarryTheirPosition) {
  RunOptions options;
  options.file = fixtures::WriteTempFile("typo.te", "n = var('n')\nA = placeholdr((n,))\n");
  std::ostringstream out, err;
  EXPECT_EQ(RunRunCommand(options, out, err), 1);
  EXPECT_EQ(err.str(), "tunefarm: " + options.file + ":2:5: name 'placeholdr' is not defined\n");
}

}  // namespace
}  // namespace tunefarm::tools
