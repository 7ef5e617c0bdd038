#include "tracker/target_fit.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

namespace tunefarm::tracker {
namespace {

using ::testing::HasSubstr;

target::Target Parsed(const std::string& text) {
  absl::StatusOr<target::Target> t = target::ParseTarget(text);
  EXPECT_TRUE(t.ok()) << t.status();
  return *t;
}

farm_api::WorkerSnapshot WorkerRunning(const std::string& target, bool build_only = false) {
  farm_api::WorkerSnapshot w;
  w.description.target = target;
  w.description.build_only = build_only;
  return w;
}

TEST(TargetFitTest, KindAndArchitectureDecide) {
  const target::Target x86 = Parsed("llvm -mtriple=x86_64-linux-gnu -mcpu=znver3");
  const target::Target a64 = Parsed("llvm -mtriple=aarch64-linux-gnu");
  EXPECT_TRUE(TargetRunsOn(x86, "llvm -mtriple=x86_64-pc-linux-gnu -mcpu=sapphirerapids"));
  EXPECT_FALSE(TargetRunsOn(a64, "llvm -mtriple=x86_64-linux-gnu"));
  EXPECT_TRUE(TargetRunsOn(a64, "llvm -mtriple=aarch64-linux-gnu"));
  EXPECT_FALSE(TargetRunsOn(Parsed("cuda"), "llvm -mtriple=x86_64-linux-gnu"));
  EXPECT_FALSE(TargetRunsOn(x86, "cuda -arch=sm_80"));
  EXPECT_TRUE(TargetRunsOn(Parsed("cuda -arch=sm_80"), "cuda -arch=sm_90"));
  // A worker that did not name its architecture (an older one) may run any CPU job.
  EXPECT_TRUE(TargetRunsOn(a64, "llvm"));
  EXPECT_FALSE(TargetRunsOn(x86, "not a target"));
}

TEST(TargetFitTest, RefusesOnlyWhenWorkersExistAndNoneRunsIt) {
  const target::Target cuda = Parsed("cuda");
  EXPECT_TRUE(CheckWorkersRun(cuda, "k", {}).ok());
  // Builders measure nothing: they do not count either way.
  EXPECT_TRUE(
      CheckWorkersRun(cuda, "k", {WorkerRunning("llvm -mtriple=x86_64-linux-gnu", true)}).ok());
  EXPECT_TRUE(
      CheckWorkersRun(cuda, "k",
                      {WorkerRunning("llvm -mtriple=x86_64-linux-gnu"), WorkerRunning("cuda")})
          .ok());
  absl::Status refused =
      CheckWorkersRun(cuda, "cpu-box", {WorkerRunning("llvm -mtriple=x86_64-linux-gnu")});
  EXPECT_EQ(refused.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(refused.message(),
              HasSubstr("no worker of device key 'cpu-box' can run target 'cuda"));
  EXPECT_THAT(refused.message(), HasSubstr("its workers run 'llvm -mtriple=x86_64"));
}

}  // namespace
}  // namespace tunefarm::tracker
