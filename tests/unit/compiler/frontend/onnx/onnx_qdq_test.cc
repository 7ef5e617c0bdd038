// The QDQ rewrite of post-training quantization: which activations it calibrates, the int8
// weights (symmetric, per output channel from opset 13, per tensor before), the int32 biases, the
// Q/DQ pairs in graph order, and its refusals. The rewritten model imports, with the quantized
// ops reading dequantized values; model_quantizer_test builds it.
#include "compiler/frontend/onnx/onnx_qdq.h"

#include <algorithm>
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <onnx/onnx_pb.h>

#include "compiler/frontend/onnx/onnx_importer.h"
#include "compiler/graph/printer.h"
#include "tests/unit/compiler/frontend/onnx/onnx_model_builder.h"

namespace tunefarm::frontend::onnx {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using B = testing::OnnxModelBuilder;

// x -> Conv(w1, b1) -> Relu -> Conv(w2) -> Flatten -> Gemm(fc, transB) -> y.
std::string Model(int64_t opset) {
  B b(opset);
  b.Input("x", {1, 2, 4, 4});
  ::onnx::TensorProto* w1 = b.FloatInit("w1", {3, 2, 1, 1});
  // Filter 0 reaches 0.5, filter 1 -2.54, filter 2 is all zeros.
  for (int i = 0; i < 6; ++i) w1->set_float_data(i, i < 2 ? 0.5f : i < 4 ? -2.54f : 0.0f);
  b.FloatInit("b1", {3}, 0.1f);
  b.FloatInit("w2", {3, 3, 1, 1}, 0.25f);
  b.FloatInit("fc", {5, 48}, 0.01f);
  b.Node("Conv", {"x", "w1", "b1"}, {"c1"});
  b.Node("Relu", {"c1"}, {"r1"});
  b.Node("Conv", {"r1", "w2"}, {"c2"});
  b.Node("Flatten", {"c2"}, {"f"});
  B::Int(b.Node("Gemm", {"f", "fc"}, {"y"}), "transB", 1);
  b.Output("y");
  return b.Bytes();
}

std::map<std::string, QdqRange> Ranges() {
  return {{"x", {-1, 1}}, {"r1", {0, 2.55}}, {"c2", {-4, 4}}, {"f", {-4, 4}}, {"y", {-3, 5}}};
}

::onnx::ModelProto Parse(const std::string& bytes) {
  ::onnx::ModelProto m;
  EXPECT_TRUE(m.ParseFromString(bytes));
  return m;
}

const ::onnx::TensorProto* Find(const ::onnx::ModelProto& m, const std::string& name) {
  for (const auto& t : m.graph().initializer()) {
    if (t.name() == name) return &t;
  }
  return nullptr;
}

TEST(OnnxQdqTest, TheDataAndOutputOfEveryQuantizableOpAreCalibratedAfterTheirRelu) {
  absl::StatusOr<QdqCalibrationPlan> plan = PlanQdqCalibration(Model(13));
  ASSERT_TRUE(plan.ok()) << plan.status();
  // The first conv's output is read by a Relu alone: the Relu's output is what gets quantized.
  EXPECT_THAT(plan->tensors, ElementsAre("x", "r1", "c2", "f", "y"));
  ::onnx::ModelProto m = Parse(plan->instrumented_model);
  std::vector<std::string> outputs;
  for (const auto& o : m.graph().output()) outputs.push_back(o.name());
  EXPECT_THAT(outputs, ElementsAre("y", "x", "r1", "c2", "f"));
}

TEST(OnnxQdqTest, WeightsAreInt8PerOutputChannelBiasesInt32AndEveryReaderReadsTheDequantize) {
  QdqSummary summary;
  absl::StatusOr<std::string> out = RewriteAsQdq(Model(13), Ranges(), {}, &summary);
  ASSERT_TRUE(out.ok()) << out.status();
  EXPECT_EQ(summary.ops, 3);
  EXPECT_EQ(summary.activations, 5);
  EXPECT_EQ(summary.weights, 3);
  EXPECT_TRUE(summary.per_channel);
  ::onnx::ModelProto m = Parse(*out);
  // The float weights are gone; w1's scales are max|w| / 127 per filter, 1 for a zero filter.
  EXPECT_EQ(Find(m, "w1"), nullptr);
  const ::onnx::TensorProto* scale = Find(m, "w1_scale");
  ASSERT_NE(scale, nullptr);
  ASSERT_EQ(scale->raw_data().size(), 3 * sizeof(float));
  const auto* s = reinterpret_cast<const float*>(scale->raw_data().data());
  EXPECT_FLOAT_EQ(s[0], 0.5f / 127);
  EXPECT_FLOAT_EQ(s[1], 2.54f / 127);
  EXPECT_FLOAT_EQ(s[2], 1.0f);
  const ::onnx::TensorProto* w = Find(m, "w1_quantized");
  ASSERT_NE(w, nullptr);
  EXPECT_EQ(w->data_type(), ::onnx::TensorProto::INT8);
  EXPECT_THAT(std::vector<int>(w->raw_data().begin(), w->raw_data().end()),
              ElementsAre(127, 127, -127, -127, 0, 0));
  // b1 at x's scale (2/255) times each filter's.
  const ::onnx::TensorProto* bias = Find(m, "b1_quantized");
  ASSERT_NE(bias, nullptr);
  EXPECT_EQ(bias->data_type(), ::onnx::TensorProto::INT32);
  EXPECT_EQ(
      reinterpret_cast<const int32_t*>(bias->raw_data().data())[0],
      static_cast<int32_t>(std::nearbyint(0.1 / (static_cast<float>(2.0 / 255) * (0.5f / 127)))));
  // Every node reads what is defined before it, and only Q/DQ nodes read the float tensors.
  std::set<std::string> defined = {"x"};
  for (const auto& t : m.graph().initializer()) defined.insert(t.name());
  int quantize = 0;
  for (const auto& n : m.graph().node()) {
    for (const auto& in : n.input()) EXPECT_TRUE(defined.count(in)) << n.op_type() << " " << in;
    for (const auto& o : n.output()) defined.insert(o);
    quantize += n.op_type() == "QuantizeLinear";
    if (n.op_type() == "Conv" || n.op_type() == "Gemm") {
      for (const auto& in : n.input()) EXPECT_THAT(in, HasSubstr("_dequantized"));
    }
  }
  EXPECT_EQ(quantize, 5);
  // It imports as ONNX defines it.
  absl::StatusOr<graph::Graph> g = ImportOnnxBytes(*out);
  ASSERT_TRUE(g.ok()) << g.status();
  EXPECT_THAT(graph::ToString(*g), HasSubstr("dequantize(@w1_quantized, @w1_scale"));
}

TEST(OnnxQdqTest, BeforeOpset13EachWeightHasOneScale) {
  QdqSummary summary;
  absl::StatusOr<std::string> out = RewriteAsQdq(Model(11), Ranges(), {}, &summary);
  ASSERT_TRUE(out.ok()) << out.status();
  EXPECT_FALSE(summary.per_channel);
  const ::onnx::ModelProto m = Parse(*out);
  const ::onnx::TensorProto* scale = Find(m, "w1_scale");
  ASSERT_NE(scale, nullptr);
  EXPECT_EQ(scale->dims_size(), 0);
  EXPECT_FLOAT_EQ(*reinterpret_cast<const float*>(scale->raw_data().data()), 2.54f / 127);
}

TEST(OnnxQdqTest, MissingRangesOldOpsetsAndModelsWithoutWeightsAreRefused) {
  std::map<std::string, QdqRange> ranges = Ranges();
  ranges.erase("c2");
  EXPECT_THAT(std::string(RewriteAsQdq(Model(13), ranges, {}, nullptr).status().message()),
              HasSubstr("no calibrated range for tensor 'c2'"));
  ranges = Ranges();
  ranges["f"] = {1, std::nan("")};
  EXPECT_THAT(std::string(RewriteAsQdq(Model(13), ranges, {}, nullptr).status().message()),
              HasSubstr("the range of tensor 'f'"));
  EXPECT_THAT(std::string(PlanQdqCalibration(Model(9)).status().message()),
              HasSubstr("QuantizeLinear needs 10 or later"));
  B b(13);
  b.Input("x", {1, 4});
  b.Node("Relu", {"x"}, {"y"});
  b.Output("y");
  EXPECT_THAT(std::string(PlanQdqCalibration(b.Bytes()).status().message()),
              HasSubstr("nothing to quantize"));
  EXPECT_THAT(std::string(PlanQdqCalibration("not a model").status().message()),
              HasSubstr("not an ONNX model"));
}

}  // namespace
}  // namespace tunefarm::frontend::onnx
