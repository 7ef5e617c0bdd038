#include "compiler/passes/pass.h"

#include <cstdlib>
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "compiler/ir/printer.h"
#include "tests/unit/compiler/ir_types.h"
#include "tests/unit/compiler/passes/test_kernels.h"

namespace tunefarm::passes {
namespace {

using namespace ir;               // NOLINT: tests build IR by hand.
using namespace passes::testing;  // NOLINT
using ::testing::HasSubstr;

using ir_fixtures::kF32;

// A pass that appends `C[0] = value` to the body, so the order passes ran in shows in the IR.
Pass Append(const std::string& name, float value) {
  return Pass{name,
              kPhaseTransform,
              [value](PrimFunc f) -> absl::StatusOr<PrimFunc> {
                f.body = Seq({f.body, FlatStore(f.params[0], value, 0)});
                return f;
              },
              {}};
}

PrimFunc Empty() { return PrimFunc{"f", {Buffer("C", kF32, {4})}, MakeNop()}; }

TEST(RunPassesTest, RunsInOrderAndSkipsDisabledPasses) {
  std::vector<Pass> passes = {Append("one", 1), Append("two", 2), Append("three", 3)};
  PassOptions opts;
  opts.disabled_passes = {"two"};
  auto f = RunPasses(Empty(), passes, opts);
  ASSERT_TRUE(f.ok()) << f.status();
  EXPECT_EQ(ToString(f->body), "C[0] = 1.0f\nC[0] = 3.0f\n");
}

TEST(RunPassesTest, EnabledIfSkipsPassesForOtherTargets) {
  std::vector<Pass> passes = {Append("one", 1), Append("gpu_only", 2)};
  passes[1].enabled_if = [](const PassOptions& o) { return o.target == LoweringTarget::kCuda; };
  auto f = RunPasses(Empty(), passes, PassOptions{});
  ASSERT_TRUE(f.ok());
  EXPECT_EQ(ToString(f->body), "C[0] = 1.0f\n");
}

TEST(RunPassesTest, UnknownDisabledPassListsValidNames) {
  PassOptions opts;
  opts.disabled_passes = {"tow"};
  auto f = RunPasses(Empty(), {Append("one", 1), Append("two", 2)}, opts);
  EXPECT_EQ(f.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(f.status().message(), HasSubstr("unknown pass 'tow'; valid passes: one, two"));
}

TEST(RunPassesTest, AnUnknownPassToDumpListsValidNames) {
  PassOptions opts;
  opts.dump_ir = "nosuchpass";
  auto f = RunPasses(Empty(), {Append("one", 1), Append("two", 2)}, opts);
  EXPECT_EQ(f.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(
      f.status().message(),
      HasSubstr("TUNEFARM_DUMP_IR names unknown pass 'nosuchpass'; valid passes: one, two"));
  opts.dump_ir = "two";
  EXPECT_TRUE(RunPasses(Empty(), {Append("one", 1), Append("two", 2)}, opts).ok());
}

TEST(RunPassesTest, FailingPassAndBrokenIrAreNamed) {
  Pass failing{
      "failing",
      kPhaseTransform,
      [](PrimFunc) -> absl::StatusOr<PrimFunc> { return absl::InvalidArgumentError("bad split"); },
      {}};
  auto f = RunPasses(Empty(), {Append("one", 1), failing}, PassOptions{});
  EXPECT_EQ(f.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(f.status().message(), HasSubstr("pass failing: bad split"));

  Pass breaking{"breaking",
                kPhaseTransform,
                [](PrimFunc f) -> absl::StatusOr<PrimFunc> {
                  f.body = FlatStore(f.params[0], 1.0f, Var("stray"));
                  return f;
                },
                {}};
  f = RunPasses(Empty(), {breaking}, PassOptions{});
  EXPECT_EQ(f.status().code(), absl::StatusCode::kInternal);
  EXPECT_THAT(f.status().message(), HasSubstr("IR invalid after pass breaking: variable 'stray'"));
  PassOptions no_verify;
  no_verify.verify = false;
  EXPECT_TRUE(RunPasses(Empty(), {breaking}, no_verify).ok());
}

TEST(RunPassesTest, DumpsIrAndTimingsToStderr) {
  PassOptions opts;
  opts.dump_ir = "two";
  opts.time_passes = true;
  ::testing::internal::CaptureStderr();
  auto f = RunPasses(Empty(), {Append("one", 1), Append("two", 2)}, opts);
  std::string err = ::testing::internal::GetCapturedStderr();
  ASSERT_TRUE(f.ok());
  EXPECT_THAT(err,
              HasSubstr("IR after two:\nfunc f(C: float32[4]) {\nC[0] = 1.0f\nC[0] = 2.0f\n}"));
  EXPECT_THAT(err, Not(HasSubstr("IR after one")));
  EXPECT_THAT(err, HasSubstr("pass timings"));
  EXPECT_THAT(err, HasSubstr("one"));
}

TEST(PassOptionsTest, FromEnvReadsTheThreeVariables) {
  setenv("TUNEFARM_DUMP_IR", "all", 1);
  setenv("TUNEFARM_TIME_PASSES", "1", 1);
  setenv("TUNEFARM_DISABLE_PASS", "simplify,unroll_loops", 1);
  PassOptions opts = PassOptions::FromEnv();
  unsetenv("TUNEFARM_DUMP_IR");
  unsetenv("TUNEFARM_TIME_PASSES");
  unsetenv("TUNEFARM_DISABLE_PASS");
  EXPECT_EQ(opts.dump_ir, "all");
  EXPECT_TRUE(opts.time_passes);
  EXPECT_THAT(opts.disabled_passes, ::testing::ElementsAre("simplify", "unroll_loops"));
  EXPECT_TRUE(opts.verify);
  EXPECT_EQ(PassOptions::FromEnv().disabled_passes.size(), 0u);
}

}  // namespace
}  // namespace tunefarm::passes
