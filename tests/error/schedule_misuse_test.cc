// Schedule primitive misuses, end to end from a script: each is an InvalidArgument whose message
// has the call's position and names the primitive, the stage and the axis involved.
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <sstream>

#include "compiler/passes/lower.h"
#include "compiler/script/script.h"
#include "tests/testing/files.h"
#include "tools/commands/lower_command.h"

namespace tunefarm {
namespace {

using ::testing::AllOf;
using ::testing::HasSubstr;

// Seven lines; the statement under test is line 8.
constexpr const char* kPrelude = R"(n = var("n")
A = placeholder((n, n), name="A")
k = reduce_axis((0, n), name="k")
B = compute((n, n), lambda i, j: A[i, j] + 1.0, name="B")
C = compute((n, n), lambda i, j: sum(B[i, k] * A[k, j], axis=k), name="C")
D = compute((n, n), lambda i, j: C[i, j] * 2.0, name="D")
s = create_schedule(D)
)";

absl::Status ScriptStatus(const std::string& schedule) {
  std::string source = std::string(kPrelude) + schedule + "\nargs = [A, D]\n";
  return script::RunScript(source, "misuse.te").status();
}

TEST(ScheduleMisuseTest, ReorderWithAForeignAxis) {
  absl::Status st = ScriptStatus("s[D].reorder(D.op.axis[1], C.op.axis[0])");
  EXPECT_EQ(st.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(std::string(st.message()),
              AllOf(HasSubstr("misuse.te:8:6:"), HasSubstr("reorder"), HasSubstr("stage D"),
                    HasSubstr("axis i"), HasSubstr("does not belong to this stage")));
}

TEST(ScheduleMisuseTest, FuseOfNonAdjacentAxes) {
  absl::Status st = ScriptStatus(
      "xo, yo, xi, yi = s[D].tile(D.op.axis[0], D.op.axis[1], x_factor=4, y_factor=4)\n"
      "f = s[D].fuse(xo, xi)");
  EXPECT_EQ(st.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(std::string(st.message()),
              AllOf(HasSubstr("misuse.te:9:10:"), HasSubstr("fuse"), HasSubstr("stage D"),
                    HasSubstr("i.outer"), HasSubstr("i.inner"), HasSubstr("not adjacent")));
}

TEST(ScheduleMisuseTest, SplittingAnAxisTwice) {
  absl::Status st = ScriptStatus(
      "a, b = s[D].split(D.op.axis[0], factor=4)\n"
      "c, d = s[D].split(D.op.axis[0], factor=2)");
  EXPECT_EQ(st.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(std::string(st.message()),
              AllOf(HasSubstr("misuse.te:9:13:"), HasSubstr("split"), HasSubstr("stage D"),
                    HasSubstr("axis i"), HasSubstr("already split")));
}

TEST(ScheduleMisuseTest, ComputeAtCycle) {
  absl::Status st = ScriptStatus(
      "s[C].compute_at(s[D], D.op.axis[0])\n"
      "s[D].compute_at(s[C], C.op.axis[0])");
  EXPECT_EQ(st.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(std::string(st.message()),
              AllOf(HasSubstr("misuse.te:9:6:"), HasSubstr("compute_at"), HasSubstr("stage D"),
                    HasSubstr("cycle"), HasSubstr("C")));
}

TEST(ScheduleMisuseTest, InliningAReduction) {
  absl::Status st = ScriptStatus("s[C].compute_inline()");
  EXPECT_EQ(st.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(std::string(st.message()),
              AllOf(HasSubstr("misuse.te:8:6:"), HasSubstr("compute_inline"), HasSubstr("stage C"),
                    HasSubstr("reduction")));
}

TEST(ScheduleMisuseTest, SplitFactorZero) {
  absl::Status st = ScriptStatus("a, b = s[D].split(D.op.axis[1], factor=0)");
  EXPECT_EQ(st.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(std::string(st.message()),
              AllOf(HasSubstr("misuse.te:8:13:"), HasSubstr("stage D"), HasSubstr("axis j")));
}

// A symbolic extent is only known to be non-constant once bounds are inferred, so this misuse
// surfaces from Lower (and `tunefarm lower`), without a script position.
TEST(ScheduleMisuseTest, VectorizingASymbolicExtent) {
  absl::StatusOr<script::ScriptResult> r = script::RunScript(
      std::string(kPrelude) + "s[D].vectorize(D.op.axis[1])\nargs = [A, D]\n", "misuse.te");
  ASSERT_TRUE(r.ok()) << r.status();
  absl::StatusOr<ir::PrimFunc> f = passes::Lower(r->schedule, r->args, "misuse");
  ASSERT_FALSE(f.ok());
  EXPECT_EQ(f.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(std::string(f.status().message()),
              AllOf(HasSubstr("vectorize"), HasSubstr("stage D"), HasSubstr("axis j"),
                    HasSubstr("not a constant")));

  std::string path = fixtures::WriteTempFile(
      "vectorize.te", std::string(kPrelude) + "s[D].vectorize(D.op.axis[1])\nargs = [A, D]\n");
  std::ostringstream out, err;
  EXPECT_EQ(tools::RunLowerCommand({path}, out, err), 1);
  EXPECT_THAT(err.str(), AllOf(HasSubstr("tunefarm: " + path + ": vectorize on stage D"),
                               HasSubstr("axis j")));
}

}  // namespace
}  // namespace tunefarm
