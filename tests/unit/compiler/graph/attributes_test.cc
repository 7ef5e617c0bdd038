#include "compiler/graph/attributes.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

namespace tunefarm::graph {
namespace {

using ::testing::HasSubstr;

TEST(AttributesTest, TypedAccessWithFallbacks) {
  Attributes attrs{{"axis", int64_t{1}},
                   {"alpha", 0.5},
                   {"mode", std::string("constant")},
                   {"pads", std::vector<int64_t>{1, 2}}};
  EXPECT_EQ(*attrs.Int("axis", 0), 1);
  EXPECT_EQ(*attrs.Int("missing", 7), 7);
  EXPECT_EQ(*attrs.Float("alpha", 1.0), 0.5);
  EXPECT_EQ(*attrs.Float("axis", 0.0), 1.0);  // an int reads as a float
  EXPECT_EQ(*attrs.String("mode", ""), "constant");
  EXPECT_EQ(*attrs.Ints("pads", {}), (std::vector<int64_t>{1, 2}));
  EXPECT_EQ(*attrs.Floats("scales", {1.5}), (std::vector<double>{1.5}));
}

TEST(AttributesTest, WrongKindNamesTheAttribute) {
  Attributes attrs{{"axis", 0.5}};
  absl::StatusOr<int64_t> axis = attrs.Int("axis", 0);
  ASSERT_FALSE(axis.ok());
  EXPECT_EQ(axis.status().message(), "attribute 'axis' should be an int but is float");
  EXPECT_THAT(std::string(attrs.Ints("axis", {}).status().message()), HasSubstr("list of ints"));
}

TEST(AttributesTest, PrintsRoundTrippingValues) {
  EXPECT_EQ(AttrValueToString(int64_t{-3}), "-3");
  EXPECT_EQ(AttrValueToString(0.1), "0.1");
  EXPECT_EQ(AttrValueToString(static_cast<double>(0.2f)), "0.2");  // float32 attributes
  EXPECT_EQ(AttrValueToString(1.0 / 3), "0.3333333333333333");
  EXPECT_EQ(AttrValueToString(std::string("same")), "\"same\"");
  EXPECT_EQ(AttrValueToString(std::vector<int64_t>{1, 2}), "[1,2]");
  EXPECT_EQ(AttrValueToString(std::vector<double>{0.5, 1}), "[0.5,1]");
}

}  // namespace
}  // namespace tunefarm::graph
