// SpecBuilder, a building worker's compiler: a spec becomes the same library the tracker would
// build, with its reference when asked; what this builder cannot make (an unknown template, a
// config of another space) is cannot_build, and a candidate's own faults are its outcome.
#include "tuner/measure/spec_builder.h"

#include <filesystem>
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "compiler/space/config_json.h"
#include "tuner/templates/build_spec_task.h"

namespace tunefarm::tuner {
namespace {

using ::testing::HasSubstr;
namespace rm = runtime::measure;

rm::BuildSpec MatmulSpec() {
  rm::BuildSpec spec;
  spec.workload_key = "matmul:16,16,16:float32";
  spec.target = "llvm";
  spec.build_timeout_s = 20;
  absl::StatusOr<std::unique_ptr<Task>> task = TaskFromBuildSpec(spec);
  EXPECT_TRUE(task.ok()) << task.status();
  spec.config_json = space::ConfigToJson((*task)->space().Get(0).value());
  return spec;
}

TEST(SpecBuilderTest, BuildsTheSpecsCandidateAndItsReference) {
  SpecBuilder builder;
  rm::BuildSpec spec = MatmulSpec();
  spec.with_reference = true;
  rm::BuiltCandidate b = builder.Build(spec);
  ASSERT_EQ(b.error_kind, rm::ErrorKind::kOk) << b.error_message;
  EXPECT_FALSE(b.cannot_build);
  EXPECT_TRUE(std::filesystem::exists(b.library_path));
  EXPECT_FALSE(b.function_name.empty());
  EXPECT_TRUE(std::filesystem::exists(b.reference_library_path));
  EXPECT_FALSE(b.reference_key.empty());
  EXPECT_GT(b.build_seconds, 0);

  spec.with_reference = false;
  rm::BuiltCandidate again = builder.Build(spec);
  ASSERT_EQ(again.error_kind, rm::ErrorKind::kOk) << again.error_message;
  EXPECT_TRUE(again.reference_library_path.empty());
  EXPECT_TRUE(std::filesystem::exists(b.library_path)) << "kept until the next call at least";
}

TEST(SpecBuilderTest, AScriptSpecBuildsLikeAKeyedOne) {
  rm::BuildSpec spec;
  spec.script_name = "mul.te";
  spec.script_source =
      "n = var(\"n\")\n"
      "A = placeholder((n,), name=\"A\")\n"
      "B = placeholder((n,), name=\"B\")\n"
      "C = compute((n,), lambda i: A[i] * B[i], name=\"C\")\n"
      "s = create_schedule(C)\n"
      "args = [A, B, C]\n";
  spec.script_bindings = {{"n", 67}};
  spec.target = "llvm";
  absl::StatusOr<std::unique_ptr<Task>> task = TaskFromBuildSpec(spec);
  ASSERT_TRUE(task.ok()) << task.status();
  spec.config_json = space::ConfigToJson((*task)->space().Get(0).value());
  SpecBuilder builder;
  rm::BuiltCandidate b = builder.Build(spec);
  EXPECT_EQ(b.error_kind, rm::ErrorKind::kOk) << b.error_message;
}

TEST(SpecBuilderTest, WhatThisBuilderCannotMakeIsCannotBuildNotTheCandidatesFault) {
  SpecBuilder builder;
  rm::BuildSpec spec = MatmulSpec();
  spec.workload_key = "no_such_template:16:float32";
  rm::BuiltCandidate b = builder.Build(spec);
  EXPECT_TRUE(b.cannot_build);
  EXPECT_THAT(b.error_message, HasSubstr("task: "));

  spec = MatmulSpec();
  spec.config_json = R"({"no_such_knob": 3})";
  b = builder.Build(spec);
  EXPECT_TRUE(b.cannot_build);
  EXPECT_THAT(b.error_message, HasSubstr("config: "));
}

}  // namespace
}  // namespace tunefarm::tuner
