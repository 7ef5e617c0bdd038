// matmul, dense and batch_matmul templates: the default and random valid configs of each compute
// what its naive reference does, and the reference what a C++ triple loop does.
#include "tuner/templates/gemm_template.h"

#include <gtest/gtest.h>

#include "tests/unit/tuner/templates/template_harness.h"
#include "tuner/templates/template_registry.h"

namespace tunefarm::tuner {
namespace {

using testing::BuildAndRun;
using testing::CheckSampledConfigs;
using testing::MakeArgs;
using testing::MakeTask;

TEST(GemmTemplateTest, MatmulSampledConfigsMatchTheReference) {
  std::unique_ptr<Task> task = MakeTask("matmul:37,45,29:float32");
  ASSERT_NE(task, nullptr);
  CheckSampledConfigs(*task, 20, 1);
}

TEST(GemmTemplateTest, DenseSampledConfigsMatchTheReference) {
  std::unique_ptr<Task> task = MakeTask("dense:30,21,17");
  ASSERT_NE(task, nullptr);
  CheckSampledConfigs(*task, 12, 2);
}

TEST(GemmTemplateTest, BatchMatmulSampledConfigsMatchTheReference) {
  std::unique_ptr<Task> task = MakeTask("batch_matmul:3,13,40,9");
  ASSERT_NE(task, nullptr);
  CheckSampledConfigs(*task, 12, 3);
}

TEST(GemmTemplateTest, MatrixVectorDefaultMatchesTheReference) {
  std::unique_ptr<Task> task = MakeTask("matmul:1,70,33");
  ASSERT_NE(task, nullptr);
  CheckSampledConfigs(*task, 3, 4);
}

// The reference itself against C[m, n] = sum_k A[m, k] B(k, n), B stored [K][N] or [N][K].
void CheckReference(const std::string& key, int64_t batch, int64_t m, int64_t n, int64_t k,
                    bool transposed) {
  std::unique_ptr<Task> task = MakeTask(key);
  ASSERT_NE(task, nullptr);
  absl::StatusOr<space::Config> def = task->DefaultConfig();
  ASSERT_TRUE(def.ok()) << def.status();
  absl::StatusOr<topi::ScheduledOp> ref = task->tmpl().Reference(*def);
  ASSERT_TRUE(ref.ok()) << ref.status();
  std::vector<runtime::NDArray> arrays = MakeArgs(*ref);
  ASSERT_TRUE(BuildAndRun(*ref, arrays, 1).ok());
  const float* a = static_cast<const float*>(arrays[0].data());
  const float* b = static_cast<const float*>(arrays[1].data());
  const float* c = static_cast<const float*>(arrays[2].data());
  for (int64_t bt = 0; bt < batch; ++bt) {
    for (int64_t i = 0; i < m; ++i) {
      for (int64_t j = 0; j < n; ++j) {
        double acc = 0;
        for (int64_t x = 0; x < k; ++x) {
          const int64_t bi = transposed ? (bt * n + j) * k + x : (bt * k + x) * n + j;
          acc += static_cast<double>(a[(bt * m + i) * k + x]) * b[bi];
        }
        ASSERT_NEAR(c[(bt * m + i) * n + j], acc, 1e-4 + 1e-4 * std::fabs(acc));
      }
    }
  }
}

TEST(GemmTemplateTest, ReferencesComputeTheGemm) {
  CheckReference("matmul:7,9,5", 1, 7, 9, 5, false);
  CheckReference("dense:7,9,5", 1, 7, 9, 5, true);
  CheckReference("batch_matmul:2,7,9,5", 2, 7, 9, 5, false);
}

TEST(GemmTemplateTest, FlopsCountMultiplyAddsTwice) {
  EXPECT_DOUBLE_EQ(MakeTask("matmul:1024,1024,1024")->flops(), 2.0 * 1024 * 1024 * 1024);
  EXPECT_DOUBLE_EQ(MakeTask("batch_matmul:4,8,16,32")->flops(), 2.0 * 4 * 8 * 16 * 32);
}

TEST(GemmTemplateTest, DefaultIsTheLibraryDefault) {
  for (const std::string key : {"matmul:1024,1024,1024", "dense:128,3072,768", "matmul:1,1000,2048",
                                "batch_matmul:12,128,64,128"}) {
    std::unique_ptr<Task> task = MakeTask(key);
    ASSERT_NE(task, nullptr);
    absl::StatusOr<space::Config> def = task->DefaultConfig();
    ASSERT_TRUE(def.ok()) << key << ": " << def.status();
    absl::StatusOr<topi::ScheduledOp> op = task->Apply(*def);
    EXPECT_TRUE(op.ok()) << key << ": " << op.status();
  }
}

TEST(GemmTemplateTest, ApplyRejectsAConfigThatBreaksAConstraint) {
  std::unique_ptr<Task> task = MakeTask("matmul:64,64,64");
  ASSERT_NE(task, nullptr);
  for (int64_t i = 0; i < task->space().size(); ++i) {
    absl::StatusOr<space::Config> c = task->space().Get(i);
    ASSERT_TRUE(c.ok());
    if (task->space().IsValid(*c)) continue;
    absl::StatusOr<topi::ScheduledOp> op = task->Apply(*c);
    EXPECT_EQ(op.status().code(), absl::StatusCode::kFailedPrecondition) << op.status();
    return;
  }
  FAIL() << "every config is valid";
}

}  // namespace
}  // namespace tunefarm::tuner
