#include "tools/commands/run_command.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <sstream>

#include "tests/testing/files.h"
#include "tests/testing/sample_scripts.h"
#include "tests/unit/tools/command_outcome.h"

namespace tunefarm::tools {
namespace {

using ::testing::HasSubstr;
using ::testing::MatchesRegex;

CommandOutcome Invoke(const RunOptions& options) {
  std::ostringstream out, err;
  int code = RunRunCommand(options, out, err);
  return {code, out.str(), err.str()};
}

TEST(RunCommandTest, ScheduledAndUnscheduledAgree) {
  RunOptions options;
  options.file = fixtures::WriteTempFile("split.te", fixtures::kSplitScript);
  options.bind = "n=67";
  CommandOutcome r = Invoke(options);
  EXPECT_EQ(r.code, 0) << r.err;
  EXPECT_THAT(r.out, MatchesRegex("max_abs_err=[0-9.e+-]+\nok\n"));
}

// Lowering takes tensors only (no scalar parameters), so a variable outside every shape cannot
// reach the function; the error says which.
TEST(RunCommandTest, VariablesOutsideShapesAreRejectedByLowering) {
  RunOptions options;
  options.file = fixtures::WriteTempFile("scale.te", R"(
n = var("n")
c = var("c")
A = placeholder((n,), name="A")
B = compute((n,), lambda i: A[i] * c, name="B")
s = create_schedule(B)
args = [A, B]
)");
  options.bind = "n=10,c=3";
  CommandOutcome r = Invoke(options);
  EXPECT_EQ(r.code, 1);
  EXPECT_THAT(r.err, HasSubstr("variable 'c'"));
}

TEST(RunCommandTest, IntegerTensors) {
  RunOptions options;
  options.file = fixtures::WriteTempFile("ints.te", R"(
A = placeholder((6, 5), dtype="int32", name="A")
B = compute((6, 5), lambda i, j: A[i, j] * 3 + A[i, j] // 2 - A[i, j] % 3, name="B")
s = create_schedule(B)
xo, yo, xi, yi = s[B].tile(B.op.axis[0], B.op.axis[1], x_factor=4, y_factor=2)
args = [A, B]
)");
  CommandOutcome r = Invoke(options);
  EXPECT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(r.out, "max_abs_err=0\nok\n");
}

TEST(RunCommandTest, UnknownTargetIsAUsageError) {
  RunOptions options;
  options.file = fixtures::WriteTempFile("split.te", fixtures::kSplitScript);
  options.bind = "n=67";
  options.target = "llvm -mcpu";
  CommandOutcome r = Invoke(options);
  EXPECT_EQ(r.code, 2);
  EXPECT_THAT(r.err, HasSubstr("(run also accepts: interp)"));
}

TEST(RunCommandTest, LlvmAgreesAndTimes) {
  RunOptions options;
  options.file = fixtures::WriteTempFile("split.te", fixtures::kSplitScript);
  options.bind = "n=67";
  options.target = "llvm";
  options.time = true;
  options.threads = 1;
  CommandOutcome r = Invoke(options);
  EXPECT_EQ(r.code, 0) << r.err;
  EXPECT_THAT(r.out, MatchesRegex("max_abs_err=[0-9.e+-]+\nok\ntarget=llvm -mcpu=[a-z0-9_-]+ "
                                  "threads=1 repeats=5\nmedian_ms=[0-9.e+-]+ gflops=[0-9.e+-]+\n"));
}

TEST(RunCommandTest, MalformedBindIsAUsageError) {
  RunOptions options;
  options.file = fixtures::WriteTempFile("split.te", fixtures::kSplitScript);
  options.bind = "n:67";
  CommandOutcome r = Invoke(options);
  EXPECT_EQ(r.code, 2);
  EXPECT_THAT(r.err, HasSubstr("tunefarm: malformed --bind item 'n:67'"));
}

TEST(RunCommandTest, MissingBindingIsAnError) {
  RunOptions options;
  options.file = fixtures::WriteTempFile("split.te", fixtures::kSplitScript);
  CommandOutcome r = Invoke(options);
  EXPECT_EQ(r.code, 1);
  EXPECT_EQ(r.err, "tunefarm: variable n (in the shape of A) needs a value: --bind n=...\n");
}

}  // namespace
}  // namespace tunefarm::tools
