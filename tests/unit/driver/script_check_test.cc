#include "driver/script_check.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "tests/testing/files.h"
#include "tests/testing/sample_scripts.h"

namespace tunefarm::driver {
namespace {

using ::testing::HasSubstr;
using ::testing::StartsWith;

// The reduction visits k in another order (ki outside ko) than the definition does, so float
// sums differ in their last bits: equal only within a tolerance.
constexpr const char* kReorderedSum = R"(
A = placeholder((16, 64), name="A")
B = placeholder((16, 64), name="B")
k = reduce_axis((0, 64), name="k")
C = compute((16, 16), lambda i, j: sum(A[i, k] * B[j, k], axis=k), name="C")
s = create_schedule(C)
ko, ki = s[C].split(C.reduce_axis[0], factor=8)
s[C].reorder(C.axis[0], C.axis[1], ki, ko)
args = [A, B, C]
)";

// 2 * 256^3 FLOPs: over what the interpreter is given as a reference.
constexpr const char* kLargeMatmul = R"(
A = placeholder((256, 256), name="A")
B = placeholder((256, 256), name="B")
k = reduce_axis((0, 256), name="k")
C = compute((256, 256), lambda i, j: sum(A[i, k] * B[j, k], axis=k), name="C")
s = create_schedule(C)
xo, yo, xi, yi = s[C].tile(C.axis[0], C.axis[1], x_factor=32, y_factor=8)
s[C].vectorize(yi)
args = [A, B, C]
)";

ScriptCheckOptions SplitOptions() {
  ScriptCheckOptions options;
  options.file = fixtures::WriteTempFile("split.te", fixtures::kSplitScript);
  options.bindings = {{"n", 67}};
  return options;
}

TEST(ScriptCheckTest, ScheduledAgreesWithTheDefinitionOnTheInterpreter) {
  absl::StatusOr<ScriptCheck> check = CheckScript(SplitOptions());
  ASSERT_TRUE(check.ok()) << check.status();
  EXPECT_TRUE(check->ok());
  ASSERT_EQ(check->outputs.size(), 1u);
  EXPECT_EQ(check->outputs[0].tensor, "B");
  EXPECT_LE(check->outputs[0].max_abs_err, 1e-5);
  EXPECT_EQ(check->max_abs_err, check->outputs[0].max_abs_err);
  EXPECT_FALSE(check->compiled_reference.has_value());
  EXPECT_FALSE(check->timing.has_value());  // not asked for
}

TEST(ScriptCheckTest, CompiledAndTimed) {
  ScriptCheckOptions options = SplitOptions();
  options.target = target::Target::Host();
  options.time = true;
  options.threads = 1;
  absl::StatusOr<ScriptCheck> check = CheckScript(options);
  ASSERT_TRUE(check.ok()) << check.status();
  EXPECT_TRUE(check->ok());
  EXPECT_FALSE(check->compiled_reference.has_value());  // small enough to interpret
  ASSERT_TRUE(check->timing.has_value());
  EXPECT_THAT(check->timing->runner, StartsWith("llvm"));
  EXPECT_EQ(check->timing->threads, 1);
  EXPECT_EQ(check->timing->repeats, 5);
  EXPECT_GT(check->timing->median_seconds, 0);
  EXPECT_GT(check->timing->gflops, 0);
}

TEST(ScriptCheckTest, LargeDefinitionsAreCompiledAsTheReference) {
  ScriptCheckOptions options;
  options.file = fixtures::WriteTempFile("large_matmul.te", kLargeMatmul);
  options.target = target::Target::Host();
  absl::StatusOr<ScriptCheck> check = CheckScript(options);
  ASSERT_TRUE(check.ok()) << check.status();
  EXPECT_TRUE(check->ok()) << check->mismatch->Describe();
  ASSERT_TRUE(check->compiled_reference.has_value());
  EXPECT_THAT(*check->compiled_reference, StartsWith("llvm"));
}

TEST(ScriptCheckTest, AMismatchIsAResultWithTheFirstDifferingElement) {
  ScriptCheckOptions options;
  options.file = fixtures::WriteTempFile("reordered_sum.te", kReorderedSum);
  absl::StatusOr<ScriptCheck> within = CheckScript(options);
  ASSERT_TRUE(within.ok()) << within.status();
  EXPECT_TRUE(within->ok());

  options.rtol = 0;
  options.atol = 0;
  absl::StatusOr<ScriptCheck> exact = CheckScript(options);
  ASSERT_TRUE(exact.ok()) << exact.status();
  ASSERT_FALSE(exact->ok());
  EXPECT_EQ(exact->mismatch->tensor, "C");
  EXPECT_THAT(exact->mismatch->index, StartsWith("["));
  EXPECT_NE(exact->mismatch->got, exact->mismatch->expected);
  EXPECT_GT(exact->max_abs_err, 0);
  EXPECT_LE(exact->max_abs_err, 1e-4);
  EXPECT_THAT(exact->mismatch->Describe(), StartsWith("C" + exact->mismatch->index + " = "));
  EXPECT_FALSE(exact->timing.has_value());
}

TEST(ScriptCheckTest, UnknownBindingNamesTheScriptsVariables) {
  ScriptCheckOptions options = SplitOptions();
  options.bindings = {{"n", 4}, {"k", 5}};
  absl::StatusOr<ScriptCheck> check = CheckScript(options);
  ASSERT_FALSE(check.ok());
  EXPECT_EQ(check.status().message(),
            "--bind names unknown variable 'k'; the script's variables are: n");
}

TEST(ScriptCheckTest, MissingBindingIsAnError) {
  ScriptCheckOptions options = SplitOptions();
  options.bindings.clear();
  absl::StatusOr<ScriptCheck> check = CheckScript(options);
  ASSERT_FALSE(check.ok());
  EXPECT_EQ(check.status().message(), "variable n (in the shape of A) needs a value: --bind n=...");
}

TEST(ScriptCheckTest, MissingFileIsNotFound) {
  ScriptCheckOptions options = SplitOptions();
  options.file = fixtures::WriteTempFile("present.te", fixtures::kSplitScript) + ".missing";
  absl::StatusOr<ScriptCheck> check = CheckScript(options);
  ASSERT_FALSE(check.ok());
  EXPECT_EQ(check.status().code(), absl::StatusCode::kNotFound);
  EXPECT_THAT(check.status().message(), HasSubstr("cannot open"));
}

TEST(ScriptCheckTest, ADatabaseNeedsACompiledTarget) {
  ScriptCheckOptions options = SplitOptions();
  options.db = "records.db";
  absl::StatusOr<ScriptCheck> check = CheckScript(options);
  ASSERT_FALSE(check.ok());
  EXPECT_EQ(check.status().code(), absl::StatusCode::kInvalidArgument);
}

// A script without knobs has one schedule: the lookup says so without opening the database.
TEST(ScriptCheckTest, TheScheduleNoteReachesTheCaller) {
  ScriptCheckOptions options = SplitOptions();
  options.target = target::Target::Host();
  options.db = fixtures::WriteTempFile("unused.db", "") + ".never-opened";
  std::string note;
  options.on_schedule = [&note](const std::string& line) { note += line + "\n"; };
  absl::StatusOr<ScriptCheck> check = CheckScript(options);
  ASSERT_TRUE(check.ok()) << check.status();
  EXPECT_EQ(note, "schedule: the script's own (it declares no cfg knobs)\n");
}

}  // namespace
}  // namespace tunefarm::driver
