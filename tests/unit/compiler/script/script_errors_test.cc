// Every kind of user error the script front end reports: InvalidArgument, "FILE:LINE:COL:", and
// a message that says what is wrong.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "tests/unit/compiler/script/script_test_support.h"

namespace tunefarm::script {
namespace {

using ::testing::HasSubstr;

constexpr const char* kPrelude = R"(n = var("n")
A = placeholder((n, n), name="A")
C = compute((n, n), lambda i, j: A[i, j] * 2.0, name="C")
s = create_schedule(C)
)";  // four lines: the snippet under test starts on line 5

std::string ErrorAfterPrelude(const std::string& snippet) {
  return ScriptError(std::string(kPrelude) + snippet);
}

TEST(ScriptErrorsTest, SyntaxErrorSaysWhatWasExpected) {
  EXPECT_THAT(ErrorAfterPrelude("s[C].split(C.op.axis[0] factor=4)\n"),
              HasSubstr("t.te:5:25: expected ',' or ')' in the argument list, got 'factor'"));
}

TEST(ScriptErrorsTest, UnknownName) {
  EXPECT_THAT(ErrorAfterPrelude("x = B + 1\n"), HasSubstr("t.te:5:5: name 'B' is not defined"));
}

TEST(ScriptErrorsTest, WrongArgumentCountAndKeywords) {
  EXPECT_THAT(ScriptError("A = placeholder((4,), 'float32', 'A', 1)\n"),
              HasSubstr("t.te:1:39: placeholder() takes at most 3 arguments (4 given)"));
  EXPECT_THAT(ScriptError("A = placeholder((4,), nam='A')\n"),
              HasSubstr("t.te:1:23: placeholder() got an unexpected keyword argument 'nam'"));
  EXPECT_THAT(ScriptError("A = compute((4,))\n"),
              HasSubstr("t.te:1:5: compute() missing required argument 'fcompute'"));
  EXPECT_THAT(ScriptError("A = placeholder((4,), shape=(4,))\n"),
              HasSubstr("t.te:1:23: placeholder() got multiple values for argument 'shape'"));
  EXPECT_THAT(ErrorAfterPrelude("s[C].split(C.op.axis[0], factor=2, nparts=2)\n"),
              HasSubstr("t.te:5:6: split: give only one of factor and nparts"));
  EXPECT_THAT(ErrorAfterPrelude("s[C].split(C.op.axis[0])\n"),
              HasSubstr("t.te:5:6: split() missing required argument 'factor' (or 'nparts')"));
  EXPECT_THAT(ErrorAfterPrelude("s[C].reorder(C.op.axis[0], x=1)\n"),
              HasSubstr("t.te:5:28: reorder() got an unexpected keyword argument 'x'"));
  EXPECT_THAT(ErrorAfterPrelude("f = lambda x: x\ny = f(1, 2)\n"),
              HasSubstr("t.te:6:5: lambda takes 1 arguments (2 given)"));
}

TEST(ScriptErrorsTest, WrongArgumentTypes) {
  EXPECT_THAT(ErrorAfterPrelude("s[C].split(C.op.axis[0], factor=A)\n"),
              HasSubstr("t.te:5:26: split: factor must be an integer, got a tensor"));
  EXPECT_THAT(ErrorAfterPrelude("s[C].split(A, factor=4)\n"),
              HasSubstr("t.te:5:12: split: parent must be an axis, got a tensor"));
  EXPECT_THAT(ScriptError("A = placeholder((4, 2.5), name='A')\n"),
              HasSubstr("t.te:1:17: placeholder: shape must hold integers, got a float"));
  EXPECT_THAT(ScriptError("A = placeholder((4,), dtype='float33')\n"),
              HasSubstr("t.te:1:23: placeholder: unknown dtype \"float33\""));
  EXPECT_THAT(ErrorAfterPrelude("D = compute((n,), 3)\n"),
              HasSubstr("t.te:5:19: compute: fcompute must be a lambda, got an integer"));
  EXPECT_THAT(ErrorAfterPrelude("x = if_then_else(1.5, A[0, 0], 0.0)\n"),
              HasSubstr("t.te:5:18: if_then_else: cond must be a condition"));
  EXPECT_THAT(ErrorAfterPrelude("s[C].bind(C.op.axis[0], C.op.axis[1])\n"),
              HasSubstr("t.te:5:25: bind: thread_ivar must be a thread axis (from thread_axis), "
                        "got axis j"));
  EXPECT_THAT(ErrorAfterPrelude("s[C].compute_at(C, C.op.axis[0])\n"),
              HasSubstr("t.te:5:17: compute_at: parent must be a stage (s[T]), got a tensor"));
  EXPECT_THAT(ScriptError("t = thread_axis('threadIdx.w')\n"),
              HasSubstr("t.te:1:17: thread_axis: unknown tag \"threadIdx.w\""));
  EXPECT_THAT(ErrorAfterPrelude("B = s.cache_read(A, 'texture', [C])\n"),
              HasSubstr("t.te:5:21: cache_read: unknown scope \"texture\""));
}

// An unknown dtype names itself and every known one; a lane suffix that would wrap the 16-bit
// lane count (float32x65537 read as float32) is unknown too.
TEST(ScriptErrorsTest, UnknownDtypeListsTheKnownOnes) {
  EXPECT_THAT(ScriptError("A = placeholder((4,), dtype='float99')\n"),
              HasSubstr("t.te:1:23: placeholder: unknown dtype \"float99\" (known: bool, int8, "
                        "int16, int32, int64, uint8, uint16, uint32, uint64, float16, float32, "
                        "float64)"));
  EXPECT_THAT(ScriptError("A = placeholder((4,), dtype='float32x65537')\n"),
              HasSubstr("unknown dtype \"float32x65537\""));
  EXPECT_THAT(ScriptError("n = var('n', dtype='handle')\n"), HasSubstr("var: unknown dtype"));
  EXPECT_THAT(ScriptError("x = const(1, dtype='int32x4')\n"), HasSubstr("unknown dtype"));
}

TEST(ScriptErrorsTest, TensorIndexing) {
  EXPECT_THAT(ErrorAfterPrelude("D = compute((n,), lambda i: A[i] + 1.0, name='D')\n"),
              HasSubstr("t.te:5:29: tensor A has 2 dimensions but is indexed with 1 index"));
  EXPECT_THAT(ErrorAfterPrelude("x = A[0, 1.5]\n"),
              HasSubstr("t.te:5:10: index 1 of tensor A must be an integer, got a float"));
  EXPECT_THAT(ErrorAfterPrelude("x = C.op.axis[2]\n"),
              HasSubstr("t.te:5:15: list index 2 out of range (the list has 2 items)"));
  EXPECT_THAT(ErrorAfterPrelude("x = s[1]\n"),
              HasSubstr("t.te:5:7: schedule[]: the index must be a tensor, got an integer"));
  EXPECT_THAT(ErrorAfterPrelude("X = placeholder((3,), name='X')\ns[X].compute_inline()\n"),
              HasSubstr("t.te:6:3: tensor X is not in this schedule"));
}

TEST(ScriptErrorsTest, UnknownAttribute) {
  EXPECT_THAT(ErrorAfterPrelude("x = C.axes\n"),
              HasSubstr("t.te:5:7: tensor C has no attribute 'axes'"));
  EXPECT_THAT(ErrorAfterPrelude("s[C].spilt(C.op.axis[0], factor=4)\n"),
              HasSubstr("t.te:5:6: stage C has no attribute 'spilt'"));
  EXPECT_THAT(ErrorAfterPrelude("x = te.computer\n"),
              HasSubstr("t.te:5:8: module 'te' has no attribute 'computer'"));
}

TEST(ScriptErrorsTest, ScheduleMisuseIsReportedAtTheCall) {
  std::string error = ErrorAfterPrelude(
      "xo, xi = s[C].split(C.op.axis[0], factor=4)\n"
      "yo, yi = s[C].split(C.op.axis[0], factor=8)\n");
  EXPECT_THAT(error, HasSubstr("t.te:6:15: split on stage C:"));
  EXPECT_THAT(error, HasSubstr("axis i"));
}

TEST(ScriptErrorsTest, ComputeBodyErrors) {
  EXPECT_THAT(ErrorAfterPrelude("D = compute((n,), lambda i, j: A[i, j], name='D')\n"),
              HasSubstr("t.te:5:19: compute: the lambda takes 2 arguments but the shape has 1"));
  EXPECT_THAT(ErrorAfterPrelude("D = compute((n,), lambda i: A, name='D')\n"),
              HasSubstr("t.te:5:29: compute: the lambda must return an expression, got a tensor"));
  EXPECT_THAT(ErrorAfterPrelude("k = reduce_axis((0, n), name='k')\n"
                                "D = compute((n,), lambda i: sum(A[i, k], axis=k) + 1.0)\n"),
              HasSubstr("t.te:6:5: compute compute: a reduction must be the whole body"));
  EXPECT_THAT(ErrorAfterPrelude("D = compute((n,), lambda i: sum(A[i, i], axis=C.op.axis[0]))\n"),
              HasSubstr("t.te:5:42: sum: axis i is not a reduction axis"));
  EXPECT_THAT(ErrorAfterPrelude("D = compute((n,), lambda i: A[i, 0] + q)\n"),
              HasSubstr("t.te:5:39: name 'q' is not defined"));
}

TEST(ScriptErrorsTest, OperatorErrors) {
  EXPECT_THAT(ErrorAfterPrelude("x = A + 1\n"),
              HasSubstr("t.te:5:7: unsupported operand types for +: a tensor and an integer"));
  EXPECT_THAT(ErrorAfterPrelude("x = 1 // 0\n"), HasSubstr("t.te:5:7: division by zero"));
  EXPECT_THAT(ErrorAfterPrelude("x = n and n\n"),
              HasSubstr("t.te:5:7: 'and' needs conditions (comparisons or bools), got int32"));
  EXPECT_THAT(ErrorAfterPrelude("x = not A[0, 0]\n"),
              HasSubstr("t.te:5:5: 'not' needs a condition"));
  EXPECT_THAT(ErrorAfterPrelude("x = -A\n"), HasSubstr("t.te:5:5: bad operand type for unary -"));
  EXPECT_THAT(ErrorAfterPrelude("x = A(1)\n"), HasSubstr("t.te:5:5: a tensor is not callable"));
}

TEST(ScriptErrorsTest, UnpackingCountMismatch) {
  EXPECT_THAT(ErrorAfterPrelude("a, b, c = s[C].split(C.op.axis[0], factor=4)\n"),
              HasSubstr("t.te:5:1: not enough values to unpack (expected 3, got 2)"));
  EXPECT_THAT(ErrorAfterPrelude("a, b = 1\n"),
              HasSubstr("t.te:5:8: cannot unpack an integer into 2 names"));
}

TEST(ScriptErrorsTest, ArgsMustEndTheScript) {
  EXPECT_THAT(
      ErrorAfterPrelude(""),
      HasSubstr("t.te:5:1: the script must end by naming its arguments: args = [A, B, ...]"));
  EXPECT_THAT(ErrorAfterPrelude("args = [A, 3]\n"),
              HasSubstr("t.te:6:1: args[1] must be a tensor, got an integer"));
  EXPECT_THAT(ScriptError("A = placeholder((4,), name='A')\nargs = [A]\n"),
              HasSubstr("t.te:3:1: the script creates no schedule"));
}

TEST(ScriptErrorsTest, RunawayRecursionIsAnErrorNotACrash) {
  EXPECT_THAT(ScriptError("f = lambda x: f(x)\ny = f(1)\n"),
              HasSubstr("expressions or calls nested too deeply"));
}

}  // namespace
}  // namespace tunefarm::script
