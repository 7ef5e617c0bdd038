// The graph text: the writer's output parses back to the same graph, and every kind of malformed
// or hostile line is refused with one line naming the graph line and the problem, before any
// allocation of what the text claims.
#include "runtime/graph/graph_format.h"

#include <gtest/gtest.h>

namespace tunefarm::runtime {
namespace {

constexpr char kGood[] = R"(tunefarm-graph 1
params 4352
tensors 5
tensor 0 float32 [1,16] input data
tensor 1 float32 [16,64] param 0 4096
tensor 2 float32 [64] param 4096 256   # a comment
tensor 3 float32 [1,64] intermediate

tensor 4 float32 [1,64] output prob%20out
steps 2
step 0 dense in:0 in:1 out:3
step 1 bias_relu in:3 in:2 out:4 int:-3 float:0.5
)";

TEST(GraphFormatTest, ParsesTheDocumentedExample) {
  GraphDescription g;
  std::string error;
  ASSERT_TRUE(ParseGraph(kGood, 4352, &g, &error)) << error;
  ASSERT_EQ(g.tensors.size(), 5u);
  EXPECT_EQ(g.tensors[0].kind, GraphTensorKind::kInput);
  EXPECT_EQ(g.tensors[0].name, "data");
  EXPECT_EQ(g.tensors[1].bytes, 4096u);
  EXPECT_EQ(g.tensors[2].param_offset, 4096u);
  EXPECT_EQ(g.tensors[4].name, "prob out");
  ASSERT_EQ(g.steps.size(), 2u);
  EXPECT_EQ(g.steps[1].kernel, "bias_relu");
  EXPECT_EQ(g.steps[1].line, 12);
  ASSERT_EQ(g.steps[1].args.size(), 5u);
  EXPECT_EQ(g.steps[1].args[2].kind, StepArgKind::kOut);
  EXPECT_EQ(g.steps[1].args[3].value, -3);
  EXPECT_EQ(g.steps[1].args[4].float_value, 0.5);
}

TEST(GraphFormatTest, WriterOutputParsesBackUnchanged) {
  GraphDescription g;
  std::string error;
  ASSERT_TRUE(ParseGraph(kGood, 4352, &g, &error)) << error;
  const std::string text = WriteGraph(g);
  GraphDescription again;
  ASSERT_TRUE(ParseGraph(text, 4352, &again, &error)) << error << "\n" << text;
  EXPECT_EQ(WriteGraph(again), text);
  EXPECT_NE(text.find("tensor 4 float32 [1,64] output prob%20out\n"), std::string::npos) << text;
  EXPECT_NE(text.find("step 1 bias_relu in:3 in:2 out:4 int:-3 float:0.5\n"), std::string::npos)
      << text;
}

struct BadCase {
  std::string replace;  // a line of kGood ...
  std::string with;     // ... replaced by this
  std::string expect;   // in the error
};

std::string Edit(const BadCase& c) {
  std::string text = kGood;
  size_t at = text.find(c.replace);
  EXPECT_NE(at, std::string::npos) << c.replace;
  return text.replace(at, c.replace.size(), c.with);
}

TEST(GraphFormatTest, EachMalformedLineKindIsAClearError) {
  const std::vector<BadCase> cases = {
      {"tunefarm-graph 1", "tunefarm-manifest 1", "line 1: not a tunefarm graph"},
      {"tunefarm-graph 1", "tunefarm-graph 2", "line 1: unsupported graph version 2"},
      {"params 4352", "params lots", "line 2: expected 'params BYTES'"},
      {"params 4352", "params 4416", "line 2: the graph expects 4416 bytes of params"},
      {"tensors 5", "tensors 99999999", "line 3: expected 'tensors COUNT' with COUNT at most"},
      {"tensors 5", "tensors -1", "line 3: expected 'tensors COUNT'"},
      {"tensor 0 float32", "tensor 7 float32", "line 4: expected 'tensor 0 ...'"},
      {"tensor 0 float32", "tensor 0 float33", "line 4: unknown or unstorable dtype 'float33'"},
      {"tensor 0 float32", "tensor 0 handle", "unknown or unstorable dtype 'handle'"},
      {"[1,16] input", "(1,16) input", "line 4: expected a shape in brackets"},
      {"[1,16] input", "[1,0] input", "line 4: bad extent '0'"},
      {"[1,16] input", "[1,-2] input", "bad extent '-2'"},
      {"[1,16] input", "[1,1,1,1,1,1,1,1,1] input", "rank above the limit of 8"},
      {"input data", "input", "line 4: expected 'input NAME'"},
      {"input data", "input da%4", "line 4: bad name"},
      {"input data", "weights data", "line 4: unknown tensor kind 'weights'"},
      {"param 0 4096", "param 0 4000", "line 5: param claims 4000 bytes, but its dtype and shape"},
      {"param 4096 256", "param 4100 256", "line 6: param offset 4100 is not a multiple of 64"},
      {"param 4096 256", "param 4224 256", "lie outside the 4352-byte params blob"},
      {"param 4096 256", "param 18446744073709551552 256", "lie outside"},
      {"[1,64] intermediate", "[1,64] intermediate x", "takes nothing after its kind"},
      {"steps 2", "steps 3", "graph ends early (line 12): expected a step"},
      {"step 0 dense", "step 1 dense", "line 11: expected 'step 0 ...'"},
      {"step 0 dense", "step 0 den-se", "line 11: bad kernel name 'den-se'"},
      {"in:1 out:3", "in:9 out:3", "line 11: argument 'in:9' names no tensor (ids are 0..4)"},
      {"in:1 out:3", "in:1 out:x", "argument 'out:x' names no tensor"},
      {"in:1 out:3", "in:1 out:3 int:1.5", "bad int argument 'int:1.5'"},
      {"in:1 out:3", "in:1 out:3 float:x", "bad float argument 'float:x'"},
      {"in:1 out:3", "in:1 3", "bad argument '3' (expected in:ID, out:ID, int:V or float:V)"},
      {"step 0 dense in:0 in:1 out:3", "step 0 dense in:0 in:1 out:3\nstep 2 extra",
       "line 12: expected 'step 1 ...'"},
      {"in:2 out:4 int:-3 float:0.5\n", "in:2 out:4\nsteps 1\n",
       "line 13: unexpected record after the last step"},
      {"step 0 dense in:0 in:1 out:3", "step 0 dense in:0 in:1 out:2",
       "line 11: step 'dense': writes param tensor 2, which is read-only"},
      {"step 0 dense in:0 in:1 out:3", "step 0 dense in:3 in:1 out:0",
       "line 11: step 'dense': reads intermediate tensor 3 before any step writes it"},
      {"in:3 in:2 out:4", "in:3 in:2 out:3", "output tensor 4 ('prob out') is never written"},
      {"output prob%20out", "input data", "two inputs are named 'data' (tensors 0 and 4)"},
      {"output prob%20out", "intermediate", "graph: no output tensor"},
  };
  for (const BadCase& c : cases) {
    GraphDescription g;
    std::string error;
    const std::string text = Edit(c);
    EXPECT_FALSE(ParseGraph(text, 4352, &g, &error)) << text;
    EXPECT_NE(error.find(c.expect), std::string::npos)
        << "expected '" << c.expect << "' in: " << error;
    EXPECT_EQ(error.find('\n'), std::string::npos) << error;
  }
}

TEST(GraphFormatTest, AHugeClaimedShapeIsRefusedWhileParsing) {
  // 2^62 floats: refused from the extents alone, before anything of that size exists; the
  // multiplication must not wrap around to a small number either.
  BadCase c{"[1,64] intermediate", "[4294967296,4294967296,4] intermediate", "larger than"};
  GraphDescription g;
  std::string error;
  EXPECT_FALSE(ParseGraph(Edit(c), 4352, &g, &error));
  EXPECT_NE(error.find("line 7: shape [4294967296,4294967296,4] is larger than the limit of "
                       "17179869184 bytes per tensor"),
            std::string::npos)
      << error;
  GraphLimits tight;
  tight.max_tensor_bytes = 50;
  EXPECT_FALSE(ParseGraph(kGood, 4352, &g, &error, tight));
  EXPECT_NE(error.find("line 4: shape [1,16] is larger than the limit of 50"), std::string::npos)
      << error;
}

TEST(GraphFormatTest, TruncatedAndEmptyTexts) {
  GraphDescription g;
  std::string error;
  EXPECT_FALSE(ParseGraph("", 0, &g, &error));
  EXPECT_NE(error.find("graph ends early (line 0): expected the header"), std::string::npos)
      << error;
  std::string text = kGood;
  const size_t last_step = text.find("step 1 ");
  for (size_t cut = 0; cut < text.size(); ++cut) {
    GraphDescription partial;
    error.clear();
    // Before the last step's line no prefix is a whole graph; inside it, some are.
    bool ok = ParseGraph(text.substr(0, cut), 4352, &partial, &error);
    if (cut <= last_step) {
      EXPECT_FALSE(ok) << cut;
    }
    EXPECT_EQ(ok, error.empty()) << cut << ": " << error;
  }
  GraphLimits small;
  small.max_text_bytes = 10;
  EXPECT_FALSE(ParseGraph(kGood, 4352, &g, &error, small));
  EXPECT_NE(error.find("over the limit of 10"), std::string::npos) << error;
}

}  // namespace
}  // namespace tunefarm::runtime
