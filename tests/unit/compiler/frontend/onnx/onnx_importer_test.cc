#include "compiler/frontend/onnx/onnx_importer.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "compiler/graph/printer.h"
#include "compiler/graph/verifier.h"
#include "tests/unit/compiler/frontend/onnx/onnx_model_builder.h"

namespace tunefarm::frontend::onnx {
namespace {

using ::testing::HasSubstr;
using testing::OnnxModelBuilder;
using B = OnnxModelBuilder;

graph::Graph Import(const OnnxModelBuilder& b) {
  absl::StatusOr<graph::Graph> g = ImportOnnxBytes(b.Bytes());
  EXPECT_TRUE(g.ok()) << g.status();
  return g.ok() ? *std::move(g) : graph::Graph();
}

const graph::TensorType& OutputType(const graph::Graph& g, size_t i = 0) {
  return g.value(g.outputs()[i].value).type;
}

TEST(OnnxImporterTest, ConvReluPoolGemm) {
  B b(13);
  b.Input("x", {1, 3, 32, 32});
  b.FloatInit("w", {8, 3, 3, 3});
  b.FloatInit("bias", {8});
  b.FloatInit("fc.w", {10, 8});
  b.FloatInit("fc.b", {10});
  auto* conv = b.Node("Conv", {"x", "w", "bias"}, {"c"}, "conv1");
  B::Ints(conv, "pads", {1, 1, 1, 1});
  B::Ints(conv, "strides", {2, 2});
  b.Node("Relu", {"c"}, {"r"});
  b.Node("GlobalAveragePool", {"r"}, {"p"});
  b.Node("Flatten", {"p"}, {"f"});
  auto* gemm = b.Node("Gemm", {"f", "fc.w", "fc.b"}, {"y"}, "fc");
  B::Int(gemm, "transB", 1);
  b.Output("y");
  graph::Graph g = Import(b);
  ASSERT_EQ(g.outputs().size(), 1u);
  EXPECT_EQ(g.outputs()[0].name, "y");
  EXPECT_EQ(OutputType(g).ToString(), "float32[1,10]");
  EXPECT_EQ(g.constants().size(), 4u);
  EXPECT_EQ(g.nodes().size(), 5u);
  EXPECT_THAT(graph::ToString(g),
              HasSubstr("conv2d(%x, @w, @bias) dilations=[1,1] groups=1 pads=[1,1,1,1] "
                        "strides=[2,2] : float32[1,8,16,16]  // conv1"));
  EXPECT_THAT(graph::ToString(g), HasSubstr("trans_b=1"));
}

// An initializer of an integer type (uint8, int8, int32) holding `values`.
void IntInit(B& b, const std::string& name, std::vector<int64_t> dims,
             ::onnx::TensorProto::DataType type, const std::vector<int>& values) {
  ::onnx::TensorProto* t = b.FloatInit(name, std::move(dims), 0);
  t->clear_float_data();
  t->set_data_type(type);
  for (int v : values) t->add_int32_data(v);
}

TEST(OnnxImporterTest, QLinearConvIsItsQdqGraphWithTheConstantBiasDequantized) {
  B b(13);
  b.Input("x", {1, 3, 6, 6});
  b.FloatInit("sx", {}, 0.5f);
  IntInit(b, "zx", {}, ::onnx::TensorProto::UINT8, {100});
  IntInit(b, "w", {2, 3, 1, 1}, ::onnx::TensorProto::INT8, {1, -2, 3, -4, 5, -6});
  b.FloatInit("sw", {2}, 0.25f);
  IntInit(b, "zw", {2}, ::onnx::TensorProto::INT8, {0, 0});
  b.FloatInit("sy", {}, 2.0f);
  IntInit(b, "zy", {}, ::onnx::TensorProto::UINT8, {7});
  IntInit(b, "bias", {2}, ::onnx::TensorProto::INT32, {8, -40});
  b.Node("QuantizeLinear", {"x", "sx", "zx"}, {"q"});
  b.Node("QLinearConv", {"q", "sx", "zx", "w", "sw", "zw", "sy", "zy", "bias"}, {"y"}, "qconv");
  b.Output("y");
  graph::Graph g = Import(b);
  EXPECT_EQ(OutputType(g).ToString(), "uint8[1,2,6,6]");
  const std::string text = graph::ToString(g);
  EXPECT_THAT(text, HasSubstr("%4 = dequantize(%3, @sx, @zx) axis=1"));
  EXPECT_THAT(text, HasSubstr("%8 = dequantize(@w, @sw, @zw) axis=0"));
  EXPECT_THAT(text, HasSubstr("%10 = conv2d(%4, %8, @qconv/bias)"));
  EXPECT_THAT(text, HasSubstr("%13 = quantize(%10, @sy, @zy)"));
  // B * sx * sw: 8 * 0.125 and -40 * 0.125.
  bool found = false;
  for (graph::ValueId id = 0; id < static_cast<graph::ValueId>(g.values().size()); ++id) {
    const runtime::NDArray* array = g.ConstantData(id);
    if (g.value(id).name != "qconv/bias" || array == nullptr) continue;
    found = true;
    EXPECT_FLOAT_EQ(static_cast<const float*>(array->data())[0], 1.0f);
    EXPECT_FLOAT_EQ(static_cast<const float*>(array->data())[1], -5.0f);
  }
  EXPECT_TRUE(found) << text;
}

TEST(OnnxImporterTest, ShapeChainFoldsToAConstantReshape) {
  B b(13);
  b.Input("x", {2, 3, 4, 5});
  b.IntInit("zero", {0});
  b.IntInit("minus1", {-1});
  b.Node("Shape", {"x"}, {"s"});
  auto* gather = b.Node("Gather", {"s", "zero_scalar"}, {"n"});
  B::Int(gather, "axis", 0);
  auto* c = b.Node("Constant", {}, {"zero_scalar"});
  auto* a = c->add_attribute();
  a->set_name("value");
  a->set_type(::onnx::AttributeProto::TENSOR);
  a->mutable_t()->set_data_type(::onnx::TensorProto::INT64);
  a->mutable_t()->add_int64_data(0);  // a scalar: no dims
  b.Node("Unsqueeze", {"n", "zero"}, {"n1"});
  b.Node("Cast", {"minus1"}, {"m1"});
  B::Int(b.model().mutable_graph()->mutable_node(4), "to", ::onnx::TensorProto::INT64);
  b.Node("Concat", {"n1", "m1"}, {"shape"});
  B::Int(b.model().mutable_graph()->mutable_node(5), "axis", 0);
  b.Node("Reshape", {"x", "shape"}, {"y"});
  b.Output("y");
  graph::Graph g = Import(b);  // the Constant comes after its use: the importer sorts
  EXPECT_EQ(OutputType(g).ToString(), "float32[2,60]");
  ASSERT_EQ(g.nodes().size(), 1u);
  EXPECT_EQ(g.nodes()[0].op, graph::OpKind::kReshape);
  EXPECT_TRUE(g.constants().empty()) << graph::ToString(g);
}

TEST(OnnxImporterTest, ClipBoundsAreAttributesBefore11AndInputsAfter) {
  B old(7);
  old.Input("x", {4});
  auto* clip = old.Node("Clip", {"x"}, {"y"});
  B::Float(clip, "min", 0);
  B::Float(clip, "max", 6);
  old.Output("y");
  EXPECT_THAT(graph::ToString(Import(old)), HasSubstr("clip(%x) max=6 min=0"));

  B now(13);
  now.Input("x", {4});
  now.FloatInit("lo", {}, 0.0f);
  now.FloatInit("hi", {}, 6.0f);
  now.Node("Clip", {"x", "lo", "hi"}, {"y"});
  now.Output("y");
  EXPECT_THAT(graph::ToString(Import(now)), HasSubstr("clip(%x) max=6 min=0"));

  B only_max(13);
  only_max.Input("x", {4});
  only_max.FloatInit("hi", {}, 6.0f);
  only_max.Node("Clip", {"x", "", "hi"}, {"y"});
  only_max.Output("y");
  EXPECT_THAT(graph::ToString(Import(only_max)), HasSubstr("clip(%x) max=6 :"));
}

TEST(OnnxImporterTest, ParametersThatBecameInputs) {
  for (int64_t opset : {7, 13}) {
    SCOPED_TRACE(opset);
    B b(opset);
    b.Input("x", {1, 6, 4, 4});
    auto* split = b.Node("Split", {"x"}, {"a", "b"});
    B::Int(split, "axis", 1);
    auto* sq = b.Node("Unsqueeze", {"a"}, {"u"});
    auto* pad = b.Node("Pad", {"b"}, {"p"});
    auto* slice = b.Node("Slice", {"u"}, {"s"});
    if (opset < 11) {
      B::Ints(split, "split", {2, 4});
      B::Ints(sq, "axes", {0});
      B::Ints(pad, "pads", {0, 0, 1, 1, 0, 0, 1, 1});
      B::Ints(slice, "starts", {1});
      B::Ints(slice, "ends", {3});
      B::Ints(slice, "axes", {3});
    } else {
      b.IntInit("sizes", {2, 4});
      split->add_input("sizes");
      b.IntInit("axes", {0});
      sq->add_input("axes");
      b.IntInit("pads", {0, 0, 1, 1, 0, 0, 1, 1});
      pad->add_input("pads");
      b.IntInit("starts", {1});
      b.IntInit("ends", {3});
      b.IntInit("slice_axes", {3});
      for (const char* n : {"starts", "ends", "slice_axes"}) slice->add_input(n);
    }
    b.Output("s");
    b.Output("p");
    graph::Graph g = Import(b);
    EXPECT_EQ(OutputType(g, 0).ToString(), "float32[1,1,2,2,4]");
    EXPECT_EQ(OutputType(g, 1).ToString(), "float32[1,4,6,6]");
    EXPECT_TRUE(g.constants().empty());
  }
}

TEST(OnnxImporterTest, OldSoftmaxFlattensAtItsAxis) {
  B b(11);
  b.Input("x", {2, 3, 4});
  b.Node("Softmax", {"x"}, {"y"}, "sm");  // axis 1: over 3 x 4
  b.Node("Dropout", {"y"}, {"z"});
  b.Output("z");
  graph::Graph g = Import(b);
  EXPECT_EQ(OutputType(g).ToString(), "float32[2,3,4]");
  std::string text = graph::ToString(g);
  EXPECT_THAT(text, HasSubstr("flatten(%x) axis=1 : float32[2,12]  // sm/flatten"));
  EXPECT_THAT(text, HasSubstr("softmax(%1) axis=1 : float32[2,12]"));
  EXPECT_THAT(text, HasSubstr("reshape(%2) shape=[2,3,4]"));
}

TEST(OnnxImporterTest, AutoPadSameUpper) {
  B b(11);
  b.Input("x", {1, 1, 5, 5});
  auto* pool = b.Node("MaxPool", {"x"}, {"y"});
  B::Ints(pool, "kernel_shape", {2, 2});
  B::Ints(pool, "strides", {2, 2});
  B::String(pool, "auto_pad", "SAME_UPPER");
  b.Output("y");
  graph::Graph g = Import(b);
  EXPECT_EQ(OutputType(g).ToString(), "float32[1,1,3,3]");
  EXPECT_THAT(graph::ToString(g), HasSubstr("pads=[0,0,1,1]"));
}

TEST(OnnxImporterTest, ConstantInputsAndInputShapesFromOptions) {
  B b(13);
  auto* x = b.Input("x", {});
  x->mutable_type()->mutable_tensor_type()->mutable_shape()->add_dim()->set_dim_param("batch");
  b.Input("shape", {2}, ::onnx::TensorProto::INT64);
  b.Node("Reshape", {"x", "shape"}, {"y"});
  b.Output("y");
  absl::StatusOr<graph::Graph> g = ImportOnnxBytes(b.Bytes());
  EXPECT_THAT(std::string(g.status().message()), HasSubstr("symbolic dimension 'batch'"));
  OnnxImportOptions options;
  options.input_shapes["x"] = {12};
  g = ImportOnnxBytes(b.Bytes(), options);
  EXPECT_THAT(std::string(g.status().message()),
              HasSubstr("shape (input 1) must be a constant known at import time"));
  runtime::NDArray shape = *runtime::NDArray::Empty({2}, {kDLInt, 64, 1});
  static_cast<int64_t*>(shape.data())[0] = 3;
  static_cast<int64_t*>(shape.data())[1] = -1;
  options.constant_inputs.emplace("shape", std::move(shape));
  g = ImportOnnxBytes(b.Bytes(), options);
  ASSERT_TRUE(g.ok()) << g.status();
  EXPECT_EQ(OutputType(*g).ToString(), "float32[3,4]");
  EXPECT_EQ(g->inputs().size(), 1u);
}

// Exporters often leave node names empty; the several ops an unnamed node becomes are named after
// its output, so two such nodes give a graph whose names are unique (the verifier's rule).
TEST(OnnxImporterTest, UnnamedNodesThatBecomeSeveralOpsGetDistinctNames) {
  OnnxModelBuilder b(13);
  b.Input("x", {2, 4, 3});
  for (const char* out : {"first", "last"}) {
    ::onnx::NodeProto* n = b.Node("ArgMax", {"x"}, {out});
    n->set_name("");
    OnnxModelBuilder::Int(n, "axis", 1);
    b.Output(out);
  }
  absl::StatusOr<graph::Graph> g = ImportOnnxBytes(b.Bytes());
  ASSERT_TRUE(g.ok()) << g.status();
  EXPECT_TRUE(graph::VerifyGraph(*g).ok()) << graph::VerifyGraph(*g);
  EXPECT_EQ(g->outputs().size(), 2u);
}

TEST(OnnxImporterTest, EveryUnsupportedNodeIsListedAtOnce) {
  B b(13);
  b.Input("x", {1, 3, 8, 8});
  b.Node("Relu", {"x"}, {"r"});
  b.Node("If", {"r"}, {"a"}, "branch");
  b.Node("Pad", {"a"}, {"p"}, "reflect_pad");
  B::String(b.model().mutable_graph()->mutable_node(2), "mode", "reflect");
  auto* custom = b.Node("Gelu", {"p"}, {"y"}, "gelu");
  custom->set_domain("com.microsoft");
  b.Node("Missing", {"nothing"}, {"z"}, "later");  // would fail later: not reached
  b.Output("y");
  absl::StatusOr<graph::Graph> g = ImportOnnxBytes(b.Bytes());
  EXPECT_EQ(g.status().code(), absl::StatusCode::kUnimplemented);
  EXPECT_EQ(g.status().message(),
            "the model (opset 13) has 4 unsupported nodes: If 'branch' (op not supported); "
            "Pad 'reflect_pad' (mode 'reflect'); Gelu 'gelu' (domain 'com.microsoft'); "
            "Missing 'later' (op not supported)");
}

TEST(OnnxImporterTest, ExtraOutputsAreUnsupported) {
  B b(13);
  b.Input("x", {1, 1, 4, 4});
  auto* pool = b.Node("MaxPool", {"x"}, {"y", "indices"}, "mp");
  B::Ints(pool, "kernel_shape", {2, 2});
  b.Output("y");
  EXPECT_THAT(std::string(ImportOnnxBytes(b.Bytes()).status().message()),
              HasSubstr("MaxPool 'mp' (the indices output)"));
}

}  // namespace
}  // namespace tunefarm::frontend::onnx
