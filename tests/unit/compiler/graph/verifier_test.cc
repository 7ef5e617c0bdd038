#include "compiler/graph/verifier.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "tests/testing/dl_types.h"

namespace tunefarm::graph {
namespace {

using ::testing::HasSubstr;

using fixtures::kF32;

std::string Message(const absl::Status& s) { return std::string(s.message()); }

TEST(GraphVerifierTest, AcceptsGraphsBuiltWithAddOp) {
  Graph g;
  ValueId x = g.AddInput("x", {kF32, {2, 3}});
  ValueId y = (*g.AddOp(OpKind::kRelu, "r", {}, {x}))[0];
  g.AddOutput("y", (*g.AddOp(OpKind::kAdd, "a", {}, {x, y}))[0]);
  EXPECT_TRUE(VerifyGraph(g).ok());
}

TEST(GraphVerifierTest, UseBeforeDefinitionIsACycle) {
  Graph g;
  ValueId x = g.AddInput("x", {kF32, {2}});
  // Node 0 reads the output of node 1, which reads node 0's output: a cycle.
  ValueId future = static_cast<ValueId>(g.values().size()) + 1;
  g.AddNode(Node{OpKind::kAdd, "first", {}, {x, future}, {}}, {{kF32, {2}}});
  g.AddNode(Node{OpKind::kRelu, "second", {}, {x + 1}, {}}, {{kF32, {2}}});
  absl::Status s = VerifyGraph(g);
  EXPECT_EQ(s.code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_THAT(Message(s), HasSubstr("node 0 (add 'first') reads %2 before node 1 defines it"));
}

TEST(GraphVerifierTest, SelfLoop) {
  Graph g;
  ValueId self = static_cast<ValueId>(g.values().size());
  g.AddNode(Node{OpKind::kRelu, "loop", {}, {self}, {}}, {{kF32, {2}}});
  EXPECT_THAT(Message(VerifyGraph(g)), HasSubstr("before node 0 defines it"));
}

TEST(GraphVerifierTest, MissingInput) {
  Graph g;
  g.AddNode(Node{OpKind::kRelu, "r", {}, {42}, {}}, {{kF32, {2}}});
  EXPECT_THAT(Message(VerifyGraph(g)), HasSubstr("reads %42, which does not exist"));
}

TEST(GraphVerifierTest, OutputTypeMustMatchInference) {
  Graph g;
  ValueId x = g.AddInput("x", {kF32, {2, 3}});
  g.AddNode(Node{OpKind::kTranspose, "t", {}, {x}, {}}, {{kF32, {2, 3}}});
  EXPECT_THAT(Message(VerifyGraph(g)),
              HasSubstr("output 0 is float32[2,3] but its inputs make it float32[3,2]"));
  Graph h;
  ValueId a = h.AddInput("a", {kF32, {4}});
  h.AddNode(Node{OpKind::kSplit, "s", {{"sizes", std::vector<int64_t>{2, 2}}}, {a}, {}},
            {{kF32, {2}}});
  EXPECT_THAT(Message(VerifyGraph(h)), HasSubstr("has 1 outputs; its op makes 2"));
  Graph bad_attr;
  ValueId b = bad_attr.AddInput("b", {kF32, {4}});
  bad_attr.AddNode(Node{OpKind::kSoftmax, "sm", {{"axis", int64_t{5}}}, {b}, {}}, {{kF32, {4}}});
  EXPECT_THAT(Message(VerifyGraph(bad_attr)), HasSubstr("softmax node 'sm': axis 5"));
}

TEST(GraphVerifierTest, NamesMustBeUnique) {
  Graph g;
  ValueId x = g.AddInput("x", {kF32, {2}});
  g.AddOp(OpKind::kRelu, "r", {}, {x}, {"x"}).IgnoreError();
  EXPECT_THAT(Message(VerifyGraph(g)), HasSubstr("value name 'x' is used twice"));

  Graph h;
  ValueId y = h.AddInput("y", {kF32, {2}});
  h.AddOp(OpKind::kRelu, "same", {}, {y}).IgnoreError();
  h.AddOp(OpKind::kRelu, "same", {}, {y}).IgnoreError();
  EXPECT_THAT(Message(VerifyGraph(h)), HasSubstr("node name 'same' is used twice"));

  Graph o;
  ValueId z = o.AddInput("z", {kF32, {2}});
  o.AddOutput("out", z);
  o.AddOutput("out", z);
  EXPECT_THAT(Message(VerifyGraph(o)), HasSubstr("graph output name 'out'"));
  Graph p;
  p.AddOutput("dangling", 3);
  EXPECT_THAT(Message(VerifyGraph(p)), HasSubstr("names no value"));
}

}  // namespace
}  // namespace tunefarm::graph
