#include "runtime/core/json_nesting.h"

#include <gtest/gtest.h>
#include <string>

namespace tunefarm::runtime {
namespace {

std::string NestedText(int depth, char open, char close) {
  return std::string(depth, open) + std::string(depth, close);
}

TEST(JsonNestingTest, CountsArraysAndObjectsTogether) {
  EXPECT_TRUE(JsonNestingWithin(R"({"a":[1,{"b":[2]}]})", 4));
  EXPECT_FALSE(JsonNestingWithin(R"({"a":[1,{"b":[2]}]})", 3));
  EXPECT_TRUE(JsonNestingWithin("[[1],[2],[3]]", 2));  // siblings do not add up
  EXPECT_TRUE(JsonNestingWithin("", 0));
  EXPECT_TRUE(JsonNestingWithin("17", 0));
}

TEST(JsonNestingTest, BracketsInsideStringsDoNotCount) {
  EXPECT_TRUE(JsonNestingWithin(R"({"k":"[[[[{{{{"})", 1));
  EXPECT_TRUE(JsonNestingWithin(R"({"k":"a\"[[[[\\"})", 1));  // escaped quote, then escaped slash
  EXPECT_FALSE(JsonNestingWithin(R"({"k":"\\",[[]]})", 2));   // the string ended at \\"
}

TEST(JsonNestingTest, RefusesHostileDepthWithoutRecursing) {
  // 100,000 levels, as the hostile record of the reliability issue: a recursive check would
  // overflow the stack here.
  EXPECT_FALSE(JsonNestingWithin(NestedText(100'000, '[', ']')));
  EXPECT_FALSE(JsonNestingWithin(R"({"config":)" + NestedText(100'000, '{', '}')));
  EXPECT_TRUE(JsonNestingWithin(NestedText(kMaxJsonNesting, '[', ']')));
  EXPECT_FALSE(JsonNestingWithin(NestedText(kMaxJsonNesting + 1, '[', ']')));
}

TEST(JsonNestingTest, UnbalancedClosersCannotHideDepth) {
  // Closers first would let the openers after them count from below zero.
  EXPECT_FALSE(JsonNestingWithin("]]]][[[[", 4));
  EXPECT_FALSE(JsonNestingWithin("[]]", 4));
}

}  // namespace
}  // namespace tunefarm::runtime
