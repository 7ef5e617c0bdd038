// Workload keys: the canonical spelling and the parser's acceptance and errors.
#include "tuner/workload.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

namespace tunefarm::tuner {
namespace {

using ::testing::HasSubstr;

TEST(WorkloadTest, KeyIsTemplateArgsDtype) {
  Workload w{"matmul", {1024, 1024, 1024}, "float32"};
  EXPECT_EQ(w.Key(), "matmul:1024,1024,1024:float32");
  EXPECT_EQ((Workload{"x", {}, "float16"}.Key()), "x::float16");
}

TEST(WorkloadTest, ParseRoundTripsTheKey) {
  for (const std::string key :
       {"matmul:1024,1024,1024:float32", "conv2d:1,64,56,56,64,3,3,1,1:float32",
        "depthwise_conv2d:1,32,112,112,3,3,1,1:float32", "x::int8"}) {
    absl::StatusOr<Workload> w = ParseWorkloadKey(key);
    ASSERT_TRUE(w.ok()) << key << ": " << w.status();
    EXPECT_EQ(w->Key(), key);
  }
}

TEST(WorkloadTest, DtypeDefaultsToFloat32) {
  absl::StatusOr<Workload> w = ParseWorkloadKey("matmul:64,64,64");
  ASSERT_TRUE(w.ok()) << w.status();
  EXPECT_EQ(*w, (Workload{"matmul", {64, 64, 64}, "float32"}));
}

TEST(WorkloadTest, NegativeArgumentsParse) {
  // Whether a template accepts them is the template's call, not the parser's.
  absl::StatusOr<Workload> w = ParseWorkloadKey("conv2d:1,-1:float32");
  ASSERT_TRUE(w.ok()) << w.status();
  EXPECT_EQ(w->args, (std::vector<int64_t>{1, -1}));
}

TEST(WorkloadTest, MalformedKeysNameThePart) {
  struct Case {
    std::string key, why;
  };
  for (const Case& c : std::vector<Case>{{"matmul", "two or three"},
                                         {"a:b:c:d", "two or three"},
                                         {":1,2", "template name is empty"},
                                         {"mat mul:1", "character ' '"},
                                         {"matmul:1,x,3", "argument 'x'"},
                                         {"matmul:1,,3", "argument ''"},
                                         {"matmul:1,2,3:", "dtype is empty"},
                                         {"matmul:99999999999999999999", "not an integer"},
                                         {"matmul:1.5", "argument '1.5'"}}) {
    absl::StatusOr<Workload> w = ParseWorkloadKey(c.key);
    ASSERT_FALSE(w.ok()) << c.key;
    EXPECT_EQ(w.status().code(), absl::StatusCode::kInvalidArgument) << c.key;
    EXPECT_THAT(w.status().message(), HasSubstr(c.why)) << c.key;
    EXPECT_THAT(w.status().message(), HasSubstr("'" + c.key + "'")) << c.key;
  }
}

}  // namespace
}  // namespace tunefarm::tuner
