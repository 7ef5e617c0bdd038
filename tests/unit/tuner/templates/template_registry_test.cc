// The template registry: the templates it lists, the errors MakeTemplate gives for bad workloads
// (each naming the key), and CreateTask's binding of a template to a target.
#include "tuner/templates/template_registry.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "compiler/topi/cpu_info.h"

namespace tunefarm::tuner {
namespace {

using ::testing::HasSubstr;

absl::Status MakeError(const std::string& key) {
  absl::StatusOr<Workload> w = ParseWorkloadKey(key);
  EXPECT_TRUE(w.ok()) << w.status();
  absl::StatusOr<std::unique_ptr<TaskTemplate>> t = MakeTemplate(*w, topi::Avx2Cpu());
  return t.status();
}

TEST(TemplateRegistryTest, ListsTheOperatorTemplatesSorted) {
  std::vector<std::string> names;
  for (const TemplateInfo& info : ListTemplates()) {
    names.push_back(info.name);
    EXPECT_FALSE(info.args_help.empty()) << info.name;
    EXPECT_FALSE(info.summary.empty()) << info.name;
  }
  EXPECT_THAT(names,
              ::testing::IsSupersetOf({"batch_matmul", "conv2d", "conv2d_nchwc", "dense",
                                       "depthwise_conv2d", "depthwise_conv2d_nchwc", "matmul"}));
  EXPECT_TRUE(std::is_sorted(names.begin(), names.end()));
}

TEST(TemplateRegistryTest, ArgsHelpDocumentsEachTemplate) {
  std::map<std::string, std::string> help;
  for (const TemplateInfo& info : ListTemplates()) help[info.name] = info.args_help;
  EXPECT_EQ(help["matmul"], "M,N,K");
  EXPECT_EQ(help["dense"], "M,N,K");
  EXPECT_EQ(help["batch_matmul"], "B,M,N,K");
  EXPECT_EQ(help["conv2d"], "N,C,H,W,O,KH,KW,stride,pad");
  EXPECT_EQ(help["conv2d_nchwc"], "N,C,H,W,O,KH,KW,stride,pad");
  EXPECT_EQ(help["depthwise_conv2d"], "N,C,H,W,KH,KW,stride,pad");
  EXPECT_EQ(help["depthwise_conv2d_nchwc"], "N,C,H,W,KH,KW,stride,pad");
}

TEST(TemplateRegistryTest, UnknownTemplateListsTheKnownOnes) {
  absl::Status st = MakeError("matmull:4,4,4");
  EXPECT_EQ(st.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(st.message(), HasSubstr("matmull:4,4,4:float32"));
  EXPECT_THAT(st.message(), HasSubstr("unknown template 'matmull'"));
  EXPECT_THAT(st.message(), HasSubstr("conv2d_nchwc"));
  EXPECT_THAT(st.message(), HasSubstr("matmul"));
}

TEST(TemplateRegistryTest, WrongArgumentCountShowsTheArgs) {
  absl::Status st = MakeError("matmul:4,4");
  EXPECT_EQ(st.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(st.message(), HasSubstr("'matmul:4,4:float32'"));
  EXPECT_THAT(st.message(), HasSubstr("M,N,K"));
  st = MakeError("conv2d:1,3,8,8,4,3,3,1");
  EXPECT_THAT(st.message(), HasSubstr("N,C,H,W,O,KH,KW,stride,pad"));
  st = MakeError("depthwise_conv2d:1,3,8,8,4,3,3,1,1");
  EXPECT_THAT(st.message(), HasSubstr("N,C,H,W,KH,KW,stride,pad"));
}

TEST(TemplateRegistryTest, NonPositiveArgumentIsNamed) {
  absl::Status st = MakeError("dense:4,0,4");
  EXPECT_EQ(st.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(st.message(), HasSubstr("'dense:4,0,4:float32'"));
  EXPECT_THAT(st.message(), HasSubstr("N = 0 must be positive"));
  st = MakeError("batch_matmul:-1,4,4,4");
  EXPECT_THAT(st.message(), HasSubstr("B = -1"));
  // Padding alone may be zero, never negative.
  EXPECT_TRUE(MakeError("conv2d:1,3,8,8,4,3,3,1,0").ok());
  st = MakeError("conv2d:1,3,8,8,4,3,3,1,-1");
  EXPECT_THAT(st.message(), HasSubstr("pad = -1 must be non-negative"));
  st = MakeError("conv2d:1,3,8,8,4,3,3,0,1");
  EXPECT_THAT(st.message(), HasSubstr("stride = 0 must be positive"));
}

TEST(TemplateRegistryTest, UnsupportedDtypeIsAnError) {
  absl::Status st = MakeError("matmul:4,4,4:float16");
  EXPECT_EQ(st.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(st.message(), HasSubstr("'matmul:4,4,4:float16'"));
  EXPECT_THAT(st.message(), HasSubstr("float32 only"));
  EXPECT_EQ(MakeError("conv2d_nchwc:1,3,8,8,4,3,3,1,1:int8").code(),
            absl::StatusCode::kInvalidArgument);
}

TEST(TemplateRegistryTest, WindowLargerThanTheInputIsAnError) {
  absl::Status st = MakeError("conv2d:1,3,4,4,8,7,7,1,0");
  EXPECT_EQ(st.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(st.message(), HasSubstr("conv2d:1,3,4,4,8,7,7,1,0:float32"));
  EXPECT_FALSE(MakeError("depthwise_conv2d:1,3,4,4,7,7,1,0").ok());
}

TEST(TemplateRegistryTest, TooLargeTensorIsAnError) {
  absl::Status st = MakeError("matmul:100000,100000,4");
  EXPECT_EQ(st.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(st.message(), HasSubstr("2^31"));
}

TEST(TemplateRegistryTest, CreateTaskBindsTargetAndSpace) {
  absl::StatusOr<std::unique_ptr<Task>> task =
      CreateTask(*ParseWorkloadKey("matmul:64,48,32"), target::Target::Host());
  ASSERT_TRUE(task.ok()) << task.status();
  EXPECT_EQ((*task)->key(), "matmul:64,48,32:float32");
  EXPECT_EQ((*task)->target(), target::Target::Host());
  EXPECT_GT((*task)->space().size(), 1);
  EXPECT_DOUBLE_EQ((*task)->flops(), 2.0 * 64 * 48 * 32);
  absl::StatusOr<space::Config> def = (*task)->DefaultConfig();
  ASSERT_TRUE(def.ok()) << def.status();
  EXPECT_TRUE((*task)->space().IsValid(*def));
}

TEST(TemplateRegistryTest, CreateTaskSizesKnobsForACrossTarget) {
  // An AVX-512 target has 16 float lanes, an AArch64 one 4: the tile_n values follow.
  for (const auto& [target, lanes] : std::vector<std::pair<std::string, int64_t>>{
           {"llvm -mcpu=skylake-avx512", 16}, {"llvm -mtriple=aarch64-linux-gnu", 4}}) {
    absl::StatusOr<std::unique_ptr<Task>> task =
        CreateTask(*ParseWorkloadKey("matmul:256,256,256"), *target::ParseTarget(target));
    ASSERT_TRUE(task.ok()) << target << ": " << task.status();
    EXPECT_EQ((*task)->cpu().Lanes(4), lanes) << target;
    const space::Knob& tile_n = (*task)->space().knob((*task)->space().KnobPosition("tile_n"));
    EXPECT_EQ(std::get<int64_t>(tile_n.ValueAt(0)), lanes) << target;
  }
}

TEST(TemplateRegistryTest, CreateTaskRejectsAnUnknownTemplate) {
  absl::StatusOr<std::unique_ptr<Task>> task =
      CreateTask(*ParseWorkloadKey("nothing:1"), target::Target::Host());
  EXPECT_EQ(task.status().code(), absl::StatusCode::kInvalidArgument);
}

}  // namespace
}  // namespace tunefarm::tuner
