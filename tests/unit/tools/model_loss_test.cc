// A model that ends in its loss (ONNX's SoftmaxCrossEntropyLoss and NegativeLogLikelihoodLoss)
// builds and runs with its labels as a real int64 input, not a constant: the loss and the
// log-probabilities match a naive computation, ignored labels included.
#include <cmath>
#include <filesystem>
#include <fstream>
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <sstream>
#include <unistd.h>

#include "tests/testing/tensor_proto_files.h"
#include "tests/unit/compiler/frontend/onnx/onnx_model_builder.h"
#include "tools/commands/model_run_command.h"

namespace tunefarm::tools {
namespace {

namespace fs = std::filesystem;
using frontend::onnx::testing::OnnxModelBuilder;

constexpr int kN = 3, kC = 4, kD = 2;

struct LossCase {
  std::string op;  // the ONNX op
  std::string reduction;
  bool weighted;
  bool ignore;  // labels equal to 2 are ignored
};

class ModelLossTest : public ::testing::TestWithParam<LossCase> {};

TEST_P(ModelLossTest, TheLossOfRealLabelsMatchesANaiveOne) {
  const LossCase& c = GetParam();
  const fs::path dir = fs::path(::testing::TempDir()) /
                       ("loss_" + std::to_string(getpid()) + "_" + c.op + "_" + c.reduction +
                        (c.weighted ? "_w" : "") + (c.ignore ? "_ii" : ""));
  fs::create_directories(dir);
  std::vector<float> scores(kN * kC * kD), weight = {0.5f, 2.0f, 1.0f, 0.25f};
  for (size_t i = 0; i < scores.size(); ++i) scores[i] = std::sin(0.7f * i) * 3;
  const std::vector<int64_t> labels = {0, 2, 3, 1, 2, 2};  // [N, D]

  OnnxModelBuilder b(13);
  b.Input("scores", {kN, kC, kD});
  b.Input("labels", {kN, kD}, ::onnx::TensorProto::INT64);
  std::vector<std::string> inputs = {"scores", "labels"};
  if (c.weighted) {
    ::onnx::TensorProto* w = b.FloatInit("weight", {kC});
    for (int i = 0; i < kC; ++i) w->set_float_data(i, weight[i]);
    inputs.push_back("weight");
  }
  std::vector<std::string> outputs = {"loss"};
  if (c.op == "SoftmaxCrossEntropyLoss") outputs.push_back("log_prob");
  ::onnx::NodeProto* n = b.Node(c.op, inputs, outputs, "the_loss");
  OnnxModelBuilder::String(n, "reduction", c.reduction);
  if (c.ignore) OnnxModelBuilder::Int(n, "ignore_index", 2);
  for (const std::string& o : outputs) b.Output(o);
  std::ofstream(dir / "loss.onnx", std::ios::binary) << b.Bytes();

  // The naive loss: NLL reads the scores as log-probabilities, SCE takes their log-softmax first.
  std::vector<float> log_prob = scores;
  if (c.op == "SoftmaxCrossEntropyLoss") {
    for (int n0 = 0; n0 < kN; ++n0) {
      for (int d = 0; d < kD; ++d) {
        double sum = 0;
        for (int k = 0; k < kC; ++k) sum += std::exp(scores[(n0 * kC + k) * kD + d]);
        for (int k = 0; k < kC; ++k) {
          log_prob[(n0 * kC + k) * kD + d] =
              static_cast<float>(scores[(n0 * kC + k) * kD + d] - std::log(sum));
        }
      }
    }
  }
  std::vector<float> each(kN * kD);
  double total = 0, total_weight = 0;
  for (int n0 = 0; n0 < kN; ++n0) {
    for (int d = 0; d < kD; ++d) {
      const int64_t label = labels[n0 * kD + d];
      const double w = (c.ignore && label == 2) ? 0 : c.weighted ? weight[label] : 1;
      each[n0 * kD + d] = static_cast<float>(-log_prob[(n0 * kC + label) * kD + d] * w);
      total += each[n0 * kD + d];
      total_weight += w;
    }
  }
  std::vector<float> want = each;
  std::vector<int64_t> want_dims = {kN, kD};
  if (c.reduction != "none") {
    want = {static_cast<float>(c.reduction == "sum" ? total : total / total_weight)};
    want_dims = {};
  }
  fixtures::WriteTensorProtoFile((dir / "scores.pb").string(), {kN, kC, kD}, scores);
  fixtures::WriteTensorProtoFile((dir / "labels.pb").string(), {kN, kD}, labels);
  fixtures::WriteTensorProtoFile((dir / "loss.pb").string(), want_dims, want);
  fixtures::WriteTensorProtoFile((dir / "log_prob.pb").string(), {kN, kC, kD}, log_prob);

  ModelRunOptions run;
  run.model = (dir / "loss.onnx").string();
  run.inputs = {"scores=" + (dir / "scores.pb").string(), "labels=" + (dir / "labels.pb").string()};
  run.expect = {(dir / "loss.pb").string()};
  if (outputs.size() > 1) run.expect.push_back((dir / "log_prob.pb").string());
  std::ostringstream out, err;
  EXPECT_EQ(RunModelRunCommand(run, out, err), 0) << out.str() << err.str();
  EXPECT_THAT(out.str(), ::testing::HasSubstr("max_abs_err="));

  // A label past the classes reads nothing out of range: it is clamped like any gather index.
  std::vector<int64_t> wild = labels;
  wild[0] = 1000;
  fixtures::WriteTensorProtoFile((dir / "wild.pb").string(), {kN, kD}, wild);
  run.inputs[1] = "labels=" + (dir / "wild.pb").string();
  run.expect.clear();
  std::ostringstream wild_out, wild_err;
  EXPECT_EQ(RunModelRunCommand(run, wild_out, wild_err), 0) << wild_err.str();
}

INSTANTIATE_TEST_SUITE_P(
    Losses, ModelLossTest,
    ::testing::Values(LossCase{"SoftmaxCrossEntropyLoss", "mean", false, false},
                      LossCase{"SoftmaxCrossEntropyLoss", "mean", true, true},
                      LossCase{"SoftmaxCrossEntropyLoss", "none", true, false},
                      LossCase{"NegativeLogLikelihoodLoss", "sum", false, true},
                      LossCase{"NegativeLogLikelihoodLoss", "mean", true, false},
                      LossCase{"NegativeLogLikelihoodLoss", "none", false, true}),
    [](const ::testing::TestParamInfo<LossCase>& info) {
      const LossCase& c = info.param;
      return (c.op == "SoftmaxCrossEntropyLoss" ? std::string("Sce") : std::string("Nll")) + "_" +
             c.reduction + (c.weighted ? "_weighted" : "") + (c.ignore ? "_ignoring" : "");
    });

}  // namespace
}  // namespace tunefarm::tools
