// Workload keys: the canonical spelling and the parser's acceptance and errors.
#include "tuner/workload.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <string>

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

// A 40 KB key used to come back whole in the error, which gRPC then refused to carry ("received
// initial metadata size exceeds limit"): refused by its length, quoted short.
TEST(WorkloadTest, OverLongKeyIsRefusedByItsLengthAndQuotedShort) {
  const std::string key = "matmul:" + std::string(40 * 1024, '1') + ":float32";
  absl::StatusOr<Workload> w = ParseWorkloadKey(key);
  ASSERT_FALSE(w.ok());
  EXPECT_EQ(w.status().code(), absl::StatusCode::kInvalidArgument);
  const std::string message(w.status().message());
  EXPECT_THAT(message, HasSubstr("over the limit of 1024"));
  EXPECT_THAT(message, HasSubstr("... (40975 bytes)"));
  EXPECT_LT(message.size(), 400u);
  std::string args;
  for (int i = 0; i < 510; ++i) args += "1,";
  const std::string longest = "m:" + args + "11";  // 1024 bytes: just within the limit
  ASSERT_EQ(longest.size(), kMaxWorkloadKeyBytes);
  EXPECT_TRUE(ParseWorkloadKey(longest).ok());
  EXPECT_FALSE(ParseWorkloadKey(longest + "1").ok());
}

TEST(WorkloadTest, MalformedLongKeyIsQuotedShort) {
  const std::string key = "matmul:" + std::string(900, 'x') + ":float32";
  absl::StatusOr<Workload> w = ParseWorkloadKey(key);
  ASSERT_FALSE(w.ok());
  EXPECT_THAT(std::string(w.status().message()), HasSubstr("is not an integer"));
  EXPECT_LT(w.status().message().size(), 600u);
}

}  // namespace
}  // namespace tunefarm::tuner
