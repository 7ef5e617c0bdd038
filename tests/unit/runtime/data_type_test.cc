#include "runtime/data_type.h"

#include <gtest/gtest.h>

namespace tunefarm::runtime {
namespace {

TEST(DataTypeTest, ParsesScalarAndVectorTypes) {
  struct Case {
    const char* text;
    DLDataType type;
  };
  const Case cases[] = {
      {"float32", {kDLFloat, 32, 1}},
      {"float64", {kDLFloat, 64, 1}},
      {"float16", {kDLFloat, 16, 1}},
      {"int8", {kDLInt, 8, 1}},
      {"int64", {kDLInt, 64, 1}},
      {"uint16", {kDLUInt, 16, 1}},
      {"bool", kDLBool},
      {"float32x4", {kDLFloat, 32, 4}},
      {"bfloat16", {kDLBfloat, 16, 1}},
      {"handle", {kDLOpaqueHandle, 64, 1}},
  };
  for (const Case& c : cases) {
    auto parsed = ParseDataType(c.text);
    ASSERT_TRUE(parsed.ok()) << c.text << ": " << parsed.status();
    EXPECT_TRUE(SameDataType(*parsed, c.type)) << c.text;
    EXPECT_EQ(DataTypeToString(c.type), c.text);
  }
}

TEST(DataTypeTest, RejectsMalformedNames) {
  for (const char* text : {"", "float", "float8", "int7", "uint1", "intx4", "float32x0", "foo32",
                           "int32x", "handlex2", "x4"}) {
    auto parsed = ParseDataType(text);
    EXPECT_FALSE(parsed.ok()) << text;
    if (!parsed.ok()) {
      EXPECT_EQ(parsed.status().code(), absl::StatusCode::kInvalidArgument);
    }
  }
}

TEST(DataTypeTest, BytesPerElement) {
  EXPECT_EQ(DataTypeBytes(kDLBool), 1u);
  EXPECT_EQ(DataTypeBytes({kDLFloat, 32, 4}), 16u);
  EXPECT_EQ(DataTypeBytes({kDLInt, 8, 1}), 1u);
  EXPECT_EQ(DataTypeToString({kDLComplex, 64, 1}), "unknown(5,64,1)");
}

}  // namespace
}  // namespace tunefarm::runtime
