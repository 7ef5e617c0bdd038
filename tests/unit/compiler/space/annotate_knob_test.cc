// Annotation choices and their JSON spelling.
#include "compiler/space/annotate_knob.h"

#include <gtest/gtest.h>

namespace tunefarm::space {
namespace {

TEST(AnnotateKnobTest, ValuesAndIndices) {
  auto k =
      AnnotateKnob::Make("ann", {Annotation::kNone, Annotation::kUnroll, Annotation::kVectorize});
  ASSERT_TRUE(k.ok());
  EXPECT_EQ((*k)->size(), 3);
  EXPECT_EQ(std::get<std::string>((*k)->ValueAt(2)), "vectorize");
  EXPECT_EQ(*(*k)->IndexOf(std::string("unroll")), 1);
  EXPECT_FALSE((*k)->IndexOf(std::string("parallel")).ok());  // valid name, not a choice here
  EXPECT_FALSE((*k)->IndexOf(std::string("fuse")).ok());
  EXPECT_FALSE((*k)->IndexOf(int64_t{1}).ok());
}

TEST(AnnotateKnobTest, NamesRoundTrip) {
  for (Annotation a :
       {Annotation::kNone, Annotation::kUnroll, Annotation::kVectorize, Annotation::kParallel}) {
    EXPECT_EQ(ParseAnnotation(AnnotationName(a)), a);
  }
  EXPECT_FALSE(ParseAnnotation("Unroll").has_value());
}

TEST(AnnotateKnobTest, RejectsEmptyAndRepeats) {
  EXPECT_FALSE(AnnotateKnob::Make("ann", {}).ok());
  EXPECT_FALSE(AnnotateKnob::Make("ann", {Annotation::kUnroll, Annotation::kUnroll}).ok());
}

}  // namespace
}  // namespace tunefarm::space
