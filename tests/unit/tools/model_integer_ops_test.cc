// ONNX's MatMulInteger and ConvInteger (what ONNX Runtime's dynamic quantization writes) build and
// run with their 8-bit operands as real inputs: the int32 results equal a naive integer
// computation exactly, with zero points per tensor, per row of A, per column of B and per output
// channel, and sums far past float's 24 bits.
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

fs::path CaseDir(const std::string& name) {
  const fs::path dir = fs::path(::testing::TempDir()) / (name + "_" + std::to_string(getpid()));
  fs::create_directories(dir);
  return dir;
}

int RunExpecting(const fs::path& dir, const std::vector<std::string>& inputs) {
  ModelRunOptions run;
  run.model = (dir / "model.onnx").string();
  for (const std::string& in : inputs)
    run.inputs.push_back(in + "=" + (dir / (in + ".pb")).string());
  run.expect = {(dir / "want.pb").string()};
  run.rtol = 0;
  run.atol = 0;
  std::ostringstream out, err;
  const int code = RunModelRunCommand(run, out, err);
  EXPECT_EQ(code, 0) << out.str() << err.str();
  EXPECT_THAT(out.str(), ::testing::HasSubstr("max_abs_err=0"));
  return code;
}

TEST(ModelIntegerOpsTest, MatMulIntegerWithZeroPointsPerRowAndPerColumnIsExact) {
  constexpr int64_t kM = 3, kK = 1024, kN = 5;
  std::vector<uint8_t> a(kM * kK);
  std::vector<int8_t> b(kK * kN);
  for (size_t i = 0; i < a.size(); ++i) a[i] = static_cast<uint8_t>(200 + (i * 7) % 56);
  for (size_t i = 0; i < b.size(); ++i) b[i] = static_cast<int8_t>(-128 + (i * 13) % 40);
  const std::vector<uint8_t> a_zero = {3, 0, 250};           // per row of A
  const std::vector<int8_t> b_zero = {-5, 0, 7, -128, 127};  // per column of B
  std::vector<int32_t> want(kM * kN);
  for (int64_t m = 0; m < kM; ++m) {
    for (int64_t n = 0; n < kN; ++n) {
      int64_t sum = 0;
      for (int64_t k = 0; k < kK; ++k) {
        sum += (int64_t{a[m * kK + k]} - a_zero[m]) * (int64_t{b[k * kN + n]} - b_zero[n]);
      }
      want[m * kN + n] = static_cast<int32_t>(sum);
    }
  }
  ASSERT_GT(std::abs(want[0]), 1 << 24) << "the sums must be past what a float holds exactly";
  OnnxModelBuilder model(10);
  model.Input("a", {kM, kK}, ::onnx::TensorProto::UINT8);
  model.Input("b", {kK, kN}, ::onnx::TensorProto::INT8);
  model.Input("a_zero", {kM}, ::onnx::TensorProto::UINT8);
  model.Input("b_zero", {kN}, ::onnx::TensorProto::INT8);
  model.Node("MatMulInteger", {"a", "b", "a_zero", "b_zero"}, {"y"});
  model.Output("y");
  const fs::path dir = CaseDir("matmul_integer");
  std::ofstream(dir / "model.onnx", std::ios::binary) << model.Bytes();
  WriteTensorProtoFile((dir / "a.pb").string(), {kM, kK}, a);
  WriteTensorProtoFile((dir / "b.pb").string(), {kK, kN}, b);
  WriteTensorProtoFile((dir / "a_zero.pb").string(), {kM}, a_zero);
  WriteTensorProtoFile((dir / "b_zero.pb").string(), {kN}, b_zero);
  WriteTensorProtoFile((dir / "want.pb").string(), {kM, kN}, want);
  RunExpecting(dir, {"a", "b", "a_zero", "b_zero"});
}

TEST(ModelIntegerOpsTest, ConvIntegerPadsWithTheZeroPointAndShiftsEachChannelsWeights) {
  constexpr int64_t kC = 3, kH = 5, kW = 4, kO = 2, kR = 3;
  std::vector<uint8_t> x(kC * kH * kW);
  std::vector<uint8_t> w(kO * kC * kR * kR);
  for (size_t i = 0; i < x.size(); ++i) x[i] = static_cast<uint8_t>((i * 37) % 256);
  for (size_t i = 0; i < w.size(); ++i) w[i] = static_cast<uint8_t>((i * 91 + 5) % 256);
  const uint8_t x_zero = 128;
  const std::vector<uint8_t> w_zero = {10, 200};  // per output channel
  // pads 1: a padded pixel reads x_zero, so it contributes nothing.
  std::vector<int32_t> want(kO * kH * kW);
  for (int64_t o = 0; o < kO; ++o) {
    for (int64_t y = 0; y < kH; ++y) {
      for (int64_t xx = 0; xx < kW; ++xx) {
        int64_t sum = 0;
        for (int64_t c = 0; c < kC; ++c) {
          for (int64_t r = 0; r < kR; ++r) {
            for (int64_t s = 0; s < kR; ++s) {
              const int64_t iy = y + r - 1, ix = xx + s - 1;
              if (iy < 0 || iy >= kH || ix < 0 || ix >= kW) continue;
              sum += (int64_t{x[(c * kH + iy) * kW + ix]} - x_zero) *
                     (int64_t{w[((o * kC + c) * kR + r) * kR + s]} - w_zero[o]);
            }
          }
        }
        want[(o * kH + y) * kW + xx] = static_cast<int32_t>(sum);
      }
    }
  }
  OnnxModelBuilder model(10);
  model.Input("x", {1, kC, kH, kW}, ::onnx::TensorProto::UINT8);
  model.Input("w", {kO, kC, kR, kR}, ::onnx::TensorProto::UINT8);
  model.Input("x_zero", {}, ::onnx::TensorProto::UINT8);
  model.Input("w_zero", {kO}, ::onnx::TensorProto::UINT8);
  ::onnx::NodeProto* conv = model.Node("ConvInteger", {"x", "w", "x_zero", "w_zero"}, {"y"});
  OnnxModelBuilder::Ints(conv, "pads", {1, 1, 1, 1});
  model.Output("y");
  const fs::path dir = CaseDir("conv_integer");
  std::ofstream(dir / "model.onnx", std::ios::binary) << model.Bytes();
  WriteTensorProtoFile((dir / "x.pb").string(), {1, kC, kH, kW}, x);
  WriteTensorProtoFile((dir / "w.pb").string(), {kO, kC, kR, kR}, w);
  WriteTensorProtoFile((dir / "x_zero.pb").string(), {}, std::vector<uint8_t>{x_zero});
  WriteTensorProtoFile((dir / "w_zero.pb").string(), {kO}, w_zero);
  WriteTensorProtoFile((dir / "want.pb").string(), {1, kO, kH, kW}, want);
  RunExpecting(dir, {"x", "w", "x_zero", "w_zero"});
}

// BitShift on real inputs (not folded at import): shifting left drops the high bits, as a shift
// does; shifting right truncates.
TEST(ModelIntegerOpsTest, BitShiftOfInputsWrapsLeftAndTruncatesRight) {
  const std::vector<uint8_t> x8 = {200, 1, 255, 3};
  const std::vector<uint8_t> y8 = {1, 7, 4, 0};
  const std::vector<uint64_t> x64 = {(uint64_t{1} << 63) + 5, 12345678901234567ull};
  const std::vector<uint64_t> y64 = {1, 13};
  for (const char* direction : {"LEFT", "RIGHT"}) {
    const bool left = std::string(direction) == "LEFT";
    OnnxModelBuilder model(11);
    model.Input("x8", {4}, ::onnx::TensorProto::UINT8);
    model.Input("y8", {4}, ::onnx::TensorProto::UINT8);
    model.Input("x64", {2}, ::onnx::TensorProto::UINT64);
    model.Input("y64", {2}, ::onnx::TensorProto::UINT64);
    OnnxModelBuilder::String(model.Node("BitShift", {"x8", "y8"}, {"z8"}), "direction", direction);
    OnnxModelBuilder::String(model.Node("BitShift", {"x64", "y64"}, {"z64"}), "direction",
                             direction);
    model.Output("z8");
    model.Output("z64");
    const fs::path dir = CaseDir(std::string("bitshift_") + direction);
    std::ofstream(dir / "model.onnx", std::ios::binary) << model.Bytes();
    WriteTensorProtoFile((dir / "x8.pb").string(), {4}, x8);
    WriteTensorProtoFile((dir / "y8.pb").string(), {4}, y8);
    WriteTensorProtoFile((dir / "x64.pb").string(), {2}, x64);
    WriteTensorProtoFile((dir / "y64.pb").string(), {2}, y64);
    std::vector<uint8_t> z8;
    for (size_t i = 0; i < x8.size(); ++i) {
      z8.push_back(static_cast<uint8_t>(left ? x8[i] << y8[i] : x8[i] >> y8[i]));
    }
    std::vector<uint64_t> z64;
    for (size_t i = 0; i < x64.size(); ++i)
      z64.push_back(left ? x64[i] << y64[i] : x64[i] >> y64[i]);
    WriteTensorProtoFile((dir / "want.pb").string(), {4}, z8);
    WriteTensorProtoFile((dir / "want64.pb").string(), {2}, z64);
    ModelRunOptions run;
    run.model = (dir / "model.onnx").string();
    for (const char* in : {"x8", "y8", "x64", "y64"}) {
      run.inputs.push_back(std::string(in) + "=" + (dir / (std::string(in) + ".pb")).string());
    }
    run.expect = {(dir / "want.pb").string(), (dir / "want64.pb").string()};
    run.rtol = 0;
    run.atol = 0;
    std::ostringstream out, err;
    EXPECT_EQ(RunModelRunCommand(run, out, err), 0) << direction << "\n" << out.str() << err.str();
  }
}

}  // namespace
}  // namespace tunefarm::tools
