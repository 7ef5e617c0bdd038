// The dense_int8 template: the default and random valid configs compute exactly what its plain
// loop nest does (uint8 x int8 over the bytes' whole range), the workload's dtype and K are
// checked, and the space keeps the register tile within the vector registers.
#include "tuner/templates/dense_int8_template.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "tests/unit/tuner/templates/template_harness.h"
#include "tuner/templates/conv2d_int8_template.h"
#include "tuner/templates/template_registry.h"

namespace tunefarm::tuner {
namespace {

using testing::CheckSampledConfigs;
using ::testing::HasSubstr;
using testing::MakeTask;

TEST(DenseInt8TemplateTest, SampledConfigsMatchTheReferenceExactly) {
  std::unique_ptr<Task> task = MakeTask("dense_int8:13,40,36:int8");
  ASSERT_NE(task, nullptr);
  CheckSampledConfigs(*task, 12, 5);
}

TEST(DenseInt8TemplateTest, AMatrixVectorProductMatches) {
  std::unique_ptr<Task> task = MakeTask("dense_int8:1,100,64:int8");
  ASSERT_NE(task, nullptr);
  CheckSampledConfigs(*task, 4, 6);
}

TEST(DenseInt8TemplateTest, WorkloadsItCannotTakeAreRefusedNamingWhy) {
  absl::Status error;
  const topi::CpuInfo cpu = topi::DetectHostCpu();
  absl::StatusOr<Workload> float_key = ParseWorkloadKey("dense_int8:4,16,32");
  ASSERT_TRUE(float_key.ok());
  EXPECT_EQ(templates::MakeDenseInt8Template(*float_key, cpu, error), nullptr);
  EXPECT_THAT(error.message(), HasSubstr("supports dtype int8 only"));
  absl::StatusOr<Workload> odd_k = ParseWorkloadKey("dense_int8:4,16,30:int8");
  ASSERT_TRUE(odd_k.ok());
  EXPECT_EQ(templates::MakeDenseInt8Template(*odd_k, cpu, error), nullptr);
  EXPECT_THAT(error.message(), HasSubstr("K a multiple of 4"));
}

}  // namespace
}  // namespace tunefarm::tuner
