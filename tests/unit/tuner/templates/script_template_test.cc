// A TE script with cfg knobs as a tuning task: examples/tune_matmul.te through CreateScriptTask
// and Task::FromTemplate (space, key, flops, default config), sampled configs built with the LLVM
// JIT against the script's naive reference and against a plain C++ matmul, and the errors.
#include "tuner/templates/script_template.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <regex>

#include "compiler/space/config_json.h"
#include "tests/testing/files.h"
#include "tests/unit/tuner/templates/template_harness.h"

namespace tunefarm::tuner {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;

std::string MatmulSource() {
  return fixtures::ReadFile(fixtures::SourcePath("examples/tune_matmul.te")).value_or("");
}

std::unique_ptr<Task> MatmulTask(int64_t n) {
  absl::StatusOr<std::unique_ptr<Task>> task = CreateScriptTask(
      "examples/tune_matmul.te", MatmulSource(), {{"n", n}}, target::Target::Host());
  EXPECT_TRUE(task.ok()) << task.status();
  return task.ok() ? *std::move(task) : nullptr;
}

TEST(ScriptTemplateTest, TaskHasTheScriptsSpaceKeyAndFlops) {
  std::unique_ptr<Task> task = MatmulTask(64);
  ASSERT_NE(task, nullptr);
  // tile_i: the 7 divisors of 64 as innermost; tile_j: powers of two up to 64 (7); tile_k:
  // innermost up to 16 (5); order: 3 candidates; vec_j, unroll_k, par_i: 2 each.
  EXPECT_EQ(task->space().num_knobs(), 7);
  EXPECT_EQ(task->space().size(), 7 * 7 * 5 * 3 * 2 * 2 * 2);
  EXPECT_TRUE(
      std::regex_match(task->key(), std::regex("script/tune_matmul@[0-9a-f]{8}:64:float32")))
      << task->key();
  EXPECT_EQ(task->workload().template_name,
            ScriptTemplateName("examples/tune_matmul.te", MatmulSource()));
  EXPECT_THAT(task->workload().args, ElementsAre(64));
  // One multiply and one add per (i, j, k).
  EXPECT_DOUBLE_EQ(task->flops(), 2.0 * 64 * 64 * 64);
  absl::StatusOr<Workload> parsed = ParseWorkloadKey(task->key());
  ASSERT_TRUE(parsed.ok()) << parsed.status();
  EXPECT_EQ(*parsed, task->workload());
}

TEST(ScriptTemplateTest, NameHashesTheSourceStably) {
  const std::string a = ScriptTemplateName("dir/my script.te", "x = 1\n");
  EXPECT_EQ(a, ScriptTemplateName("other/my script.te", "x = 1\n"));
  EXPECT_NE(a, ScriptTemplateName("dir/my script.te", "x = 2\n"));
  EXPECT_TRUE(std::regex_match(a, std::regex("script/my_script@[0-9a-f]{8}"))) << a;
  // FNV-1a of the empty string is cbf29ce484222325: the key spelling never drifts.
  EXPECT_EQ(ScriptTemplateName("e.te", ""), "script/e@cbf29ce4");
}

TEST(ScriptTemplateTest, EmptyBindingsUseTheBindLine) {
  absl::StatusOr<std::unique_ptr<Task>> task =
      CreateScriptTask("tune_matmul.te", MatmulSource(), {}, target::Target::Host());
  ASSERT_TRUE(task.ok()) << task.status();
  EXPECT_THAT((*task)->workload().args, ElementsAre(64));  // "# bind: n=64"
}

TEST(ScriptTemplateTest, DefaultConfigIsTheFallback) {
  std::unique_ptr<Task> task = MatmulTask(64);
  ASSERT_NE(task, nullptr);
  absl::StatusOr<space::Config> c = task->DefaultConfig();
  ASSERT_TRUE(c.ok()) << c.status();
  EXPECT_EQ(space::ConfigToJson(*c),
            R"({"tile_i":[4,16],"tile_j":[4,16],"tile_k":[4,16],"order":[0,1,2,3,4,5],)"
            R"("vec_j":"none","unroll_k":"none","par_i":"none"})");
}

// Sampled configs (and the default) against the script's own naive reference, on the JIT.
TEST(ScriptTemplateTest, SampledConfigsMatchTheReference) {
  std::unique_ptr<Task> task = MatmulTask(48);
  ASSERT_NE(task, nullptr);
  testing::CheckSampledConfigs(*task, 6, 11);
}

// The C++ definition of C = A B, so the reference itself is checked too.
TEST(ScriptTemplateTest, AppliedConfigsMatchANaiveMatmul) {
  constexpr int64_t n = 32;
  std::unique_ptr<Task> task = MatmulTask(n);
  ASSERT_NE(task, nullptr);
  for (int64_t index : {int64_t{0}, task->space().size() - 1, int64_t{1234}}) {
    absl::StatusOr<space::Config> c = task->space().Get(index);
    ASSERT_TRUE(c.ok());
    absl::StatusOr<topi::ScheduledOp> op = task->Apply(*c);
    ASSERT_TRUE(op.ok()) << op.status();
    std::vector<runtime::NDArray> arrays = testing::MakeArgs(*op);
    ASSERT_TRUE(testing::BuildAndRun(*op, arrays).ok()) << space::ConfigToJson(*c);
    const float* a = static_cast<const float*>(arrays[0].data());
    const float* b = static_cast<const float*>(arrays[1].data());
    const float* got = static_cast<const float*>(arrays[2].data());
    for (int64_t i = 0; i < n; ++i) {
      for (int64_t j = 0; j < n; ++j) {
        double want = 0;
        for (int64_t k = 0; k < n; ++k) want += double(a[i * n + k]) * b[k * n + j];
        ASSERT_NEAR(got[i * n + j], want, 1e-4)
            << space::ConfigToJson(*c) << " at " << i << "," << j;
      }
    }
  }
}

TEST(ScriptTemplateTest, AScriptWithoutKnobsIsAOnePointTask) {
  const std::string source =
      "n = var(\"n\")\nA = placeholder((n,), name=\"A\")\n"
      "B = compute((n,), lambda i: A[i] * 2.0, name=\"B\")\n"
      "s = create_schedule(B)\nargs = [A, B]\n";
  absl::StatusOr<std::unique_ptr<Task>> task =
      CreateScriptTask("scale.te", source, {{"n", 10}}, target::Target::Host());
  ASSERT_TRUE(task.ok()) << task.status();
  EXPECT_EQ((*task)->space().size(), 1);
  EXPECT_DOUBLE_EQ((*task)->flops(), 10.0);
  testing::CheckSampledConfigs(**task, 1, 3);
}

TEST(ScriptTemplateTest, Errors) {
  const std::string symbolic =
      "n = var(\"n\")\nA = placeholder((n,), name=\"A\")\n"
      "B = compute((n,), lambda i: A[i] * 2.0, name=\"B\")\n"
      "s = create_schedule(B)\nargs = [A, B]\n";
  absl::StatusOr<std::unique_ptr<Task>> task =
      CreateScriptTask("sym.te", symbolic, {}, target::Target::Host());
  ASSERT_FALSE(task.ok());
  EXPECT_THAT(task.status().message(), HasSubstr("bind its variables"));
  task = CreateScriptTask("bad.te", "x = cfg[\"nope\"]\n", {}, target::Target::Host());
  ASSERT_FALSE(task.ok());
  EXPECT_THAT(task.status().message(), HasSubstr("bad.te:1:9: cfg has no knob 'nope'"));
  task = CreateScriptTask("tune_matmul.te", MatmulSource(), {{"n", 64}, {"m", 3}},
                          target::Target::Host());
  ASSERT_FALSE(task.ok());
  EXPECT_THAT(task.status().message(), HasSubstr("unknown variable 'm'"));
}

// A config of another space (another script version) is rejected by Apply, not misapplied.
TEST(ScriptTemplateTest, ApplyRejectsAConfigOfAnotherSpace) {
  std::unique_ptr<Task> small = MatmulTask(16);
  std::unique_ptr<Task> large = MatmulTask(64);
  ASSERT_NE(small, nullptr);
  ASSERT_NE(large, nullptr);
  absl::StatusOr<space::Config> c = large->space().Get(0);
  ASSERT_TRUE(c.ok());
  absl::StatusOr<topi::ScheduledOp> op = small->Apply(*c);
  ASSERT_FALSE(op.ok());
  EXPECT_THAT(op.status().message(), HasSubstr("knob 'tile_i' is defined as a split knob of 5"));
}

}  // namespace
}  // namespace tunefarm::tuner
