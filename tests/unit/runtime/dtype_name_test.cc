#include "runtime/core/dtype_name.h"

#include <gtest/gtest.h>

namespace tunefarm::runtime {
namespace {

TEST(DTypeNameTest, RoundTripsEveryNamedType) {
  const DLDataType types[] = {{kDLInt, 8, 1},    {kDLInt, 64, 1},    {kDLUInt, 16, 1},
                              {kDLUInt, 1, 1},   {kDLUInt, 1, 8},    {kDLFloat, 16, 1},
                              {kDLFloat, 32, 4}, {kDLBfloat, 16, 1}, {kDLOpaqueHandle, 64, 1}};
  for (DLDataType t : types) {
    DLDataType parsed{};
    ASSERT_TRUE(ParseDTypeName(DTypeName(t), &parsed)) << DTypeName(t);
    EXPECT_EQ(parsed.code, t.code) << DTypeName(t);
    EXPECT_EQ(parsed.bits, t.bits) << DTypeName(t);
    EXPECT_EQ(parsed.lanes, t.lanes) << DTypeName(t);
  }
  EXPECT_EQ(DTypeName({kDLUInt, 1, 8}), "boolx8");
}

TEST(DTypeNameTest, UnknownTypesPrintTheirFieldsAndDoNotParse) {
  EXPECT_EQ(DTypeName({kDLComplex, 64, 1}), "unknown(5,64,1)");
  EXPECT_EQ(DTypeName({kDLFloat, 8, 1}), "unknown(2,8,1)");
  DLDataType t{};
  EXPECT_FALSE(ParseDTypeName("unknown(5,64,1)", &t));
  EXPECT_FALSE(ParseDTypeName("float32x65536", &t));
}

}  // namespace
}  // namespace tunefarm::runtime
