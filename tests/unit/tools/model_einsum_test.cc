// ONNX Einsum with real inputs against naive sums: a batched matmul through an ellipsis, the
// implicit output (labels that appear once, alphabetical; the rest summed), a diagonal summed
// over; and equations that do not fit their inputs refused with the reason.
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
using fixtures::WriteTensorProtoFile;
using frontend::onnx::testing::OnnxModelBuilder;

struct EinsumCase {
  std::string name, equation;
  std::vector<std::vector<int64_t>> shapes;
  std::vector<int64_t> out_shape;
};

std::vector<float> Values(size_t n, int seed) {
  std::vector<float> v(n);
  for (size_t i = 0; i < n; ++i) v[i] = static_cast<float>((i * 31 + seed * 7) % 13) / 6 - 1;
  return v;
}

// Runs `c` on inputs made by Values and returns the command's exit code and output.
int RunEinsum(const EinsumCase& c, const std::vector<float>& want, std::string* log) {
  OnnxModelBuilder b(12);
  std::vector<std::string> names;
  for (size_t i = 0; i < c.shapes.size(); ++i) {
    names.push_back("x" + std::to_string(i));
    b.Input(names.back(), c.shapes[i]);
  }
  OnnxModelBuilder::String(b.Node("Einsum", names, {"y"}, "einsum"), "equation", c.equation);
  b.Output("y");
  const fs::path dir =
      fs::path(::testing::TempDir()) / ("einsum_" + c.name + "_" + std::to_string(getpid()));
  fs::create_directories(dir);
  std::ofstream(dir / "model.onnx", std::ios::binary) << b.Bytes();
  ModelRunOptions run;
  run.model = (dir / "model.onnx").string();
  for (size_t i = 0; i < c.shapes.size(); ++i) {
    size_t n = 1;
    for (int64_t d : c.shapes[i]) n *= static_cast<size_t>(d);
    WriteTensorProtoFile((dir / (names[i] + ".pb")).string(), c.shapes[i],
                         Values(n, static_cast<int>(i)));
    run.inputs.push_back(names[i] + "=" + (dir / (names[i] + ".pb")).string());
  }
  WriteTensorProtoFile((dir / "want.pb").string(), c.out_shape, want);
  run.expect = {(dir / "want.pb").string()};
  std::ostringstream out, err;
  const int code = RunModelRunCommand(run, out, err);
  *log = out.str() + err.str();
  return code;
}

TEST(ModelEinsumTest, BatchedMatmulImplicitOutputAndDiagonalMatchNaiveSums) {
  {
    const std::vector<float> a = Values(2 * 3 * 4, 0), b = Values(2 * 4 * 5, 1);
    std::vector<float> want(2 * 3 * 5, 0);
    for (int n = 0; n < 2; ++n)
      for (int i = 0; i < 3; ++i)
        for (int k = 0; k < 5; ++k)
          for (int j = 0; j < 4; ++j)
            want[(n * 3 + i) * 5 + k] += a[(n * 3 + i) * 4 + j] * b[(n * 4 + j) * 5 + k];
    std::string log;
    EXPECT_EQ(RunEinsum({"ellipsis", "...ij, ...jk -> ...ik", {{2, 3, 4}, {2, 4, 5}}, {2, 3, 5}},
                        want, &log),
              0)
        << log;
  }
  {
    // "bij,bkj": i and k appear once (the output, in that order); b and j are summed.
    const std::vector<float> a = Values(2 * 3 * 4, 0), b = Values(2 * 5 * 4, 1);
    std::vector<float> want(3 * 5, 0);
    for (int n = 0; n < 2; ++n)
      for (int i = 0; i < 3; ++i)
        for (int k = 0; k < 5; ++k)
          for (int j = 0; j < 4; ++j)
            want[i * 5 + k] += a[(n * 3 + i) * 4 + j] * b[(n * 5 + k) * 4 + j];
    std::string log;
    EXPECT_EQ(RunEinsum({"implicit", "bij,bkj", {{2, 3, 4}, {2, 5, 4}}, {3, 5}}, want, &log), 0)
        << log;
  }
  {
    const std::vector<float> a = Values(3 * 3 * 4, 0);
    std::vector<float> want(4, 0);
    for (int i = 0; i < 3; ++i)
      for (int j = 0; j < 4; ++j) want[j] += a[(i * 3 + i) * 4 + j];
    std::string log;
    EXPECT_EQ(RunEinsum({"diagonal", "iij->j", {{3, 3, 4}}, {4}}, want, &log), 0) << log;
  }
}

TEST(ModelEinsumTest, EquationsThatDoNotFitTheirInputsAreRefusedWithTheReason) {
  struct Bad {
    EinsumCase c;
    std::string reason;
  };
  for (const Bad& bad : std::vector<Bad>{
           {{"terms", "ij,jk,kl->il", {{2, 3}, {3, 4}}, {2, 4}}, "more terms than the 2 inputs"},
           {{"label", "i$j->ij", {{2, 3}}, {2, 3}}, "'$' is not a label"},
           {{"rank", "ijk->i", {{2, 3}}, {2}}, "has 3 labels for 2 axes"},
           {{"unknown", "ij->iq", {{2, 3}}, {2, 3}}, "output label 'q' is in no input"},
           {{"three", "i,i,i->i", {{2}, {2}, {2}}, {2}}, "3 operands"}}) {
    std::string log;
    EXPECT_NE(RunEinsum(bad.c, std::vector<float>(2, 0), &log), 0) << bad.c.name;
    EXPECT_THAT(log, ::testing::HasSubstr(bad.reason)) << bad.c.name;
  }
}

}  // namespace
}  // namespace tunefarm::tools
