// ONNX ConvTranspose against a naive scatter (each input pixel times the kernel, added where it
// lands), on windows PyTorch's exports do not reach: grouped with uneven strides, dilations and
// pads, output_padding, an explicit output_shape with an odd padding total, auto_pad SAME_LOWER,
// and a weight that is a graph input rather than a constant.
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

struct DeconvWindow {
  int64_t groups = 1, cout_per_group = 1;
  int64_t kh = 3, kw = 3, sh = 1, sw = 1, dh = 1, dw = 1;
  int64_t pad_top = 0, pad_left = 0, pad_bottom = 0, pad_right = 0, op_h = 0, op_w = 0;
};

constexpr int64_t kDeconvChannels = 4, kDeconvHeight = 4, kDeconvWidth = 3;

// The scatter form of the definition, with the pads given explicitly.
std::vector<float> NaiveConvTranspose(const std::vector<float>& x, const std::vector<float>& w,
                                      const std::vector<float>& bias, const DeconvWindow& win,
                                      int64_t* oh, int64_t* ow) {
  *oh = win.sh * (kDeconvHeight - 1) + win.op_h + (win.kh - 1) * win.dh + 1 - win.pad_top -
        win.pad_bottom;
  *ow = win.sw * (kDeconvWidth - 1) + win.op_w + (win.kw - 1) * win.dw + 1 - win.pad_left -
        win.pad_right;
  const int64_t cig = kDeconvChannels / win.groups, cog = win.cout_per_group,
                cout = win.groups * cog;
  std::vector<float> y(cout * *oh * *ow);
  for (int64_t o = 0; o < cout; ++o) {
    for (int64_t p = 0; p < *oh * *ow; ++p) y[o * *oh * *ow + p] = bias[o];
  }
  for (int64_t g = 0; g < win.groups; ++g) {
    for (int64_t ci = 0; ci < cig; ++ci) {
      for (int64_t i = 0; i < kDeconvHeight; ++i) {
        for (int64_t j = 0; j < kDeconvWidth; ++j) {
          for (int64_t co = 0; co < cog; ++co) {
            for (int64_t r = 0; r < win.kh; ++r) {
              for (int64_t s = 0; s < win.kw; ++s) {
                const int64_t y0 = i * win.sh + r * win.dh - win.pad_top;
                const int64_t x0 = j * win.sw + s * win.dw - win.pad_left;
                if (y0 < 0 || y0 >= *oh || x0 < 0 || x0 >= *ow) continue;
                const int64_t c = g * cig + ci;
                y[((g * cog + co) * *oh + y0) * *ow + x0] +=
                    x[(c * kDeconvHeight + i) * kDeconvWidth + j] *
                    w[((c * cog + co) * win.kh + r) * win.kw + s];
              }
            }
          }
        }
      }
    }
  }
  return y;
}

enum class DeconvPadsFrom { kAttribute, kOutputShape, kSameLower };

void ExpectMatchesNaive(const std::string& name, const DeconvWindow& win, DeconvPadsFrom pads,
                        bool weight_is_input) {
  std::vector<float> x(kDeconvChannels * kDeconvHeight * kDeconvWidth),
      w(kDeconvChannels * win.cout_per_group * win.kh * win.kw);
  std::vector<float> bias(win.groups * win.cout_per_group);
  for (size_t i = 0; i < x.size(); ++i) x[i] = static_cast<float>((i * 37) % 19) / 9 - 1;
  for (size_t i = 0; i < w.size(); ++i) w[i] = static_cast<float>((i * 53) % 23) / 11 - 1;
  for (size_t i = 0; i < bias.size(); ++i) bias[i] = 0.25f * static_cast<float>(i);
  int64_t oh = 0, ow = 0;
  const std::vector<float> want = NaiveConvTranspose(x, w, bias, win, &oh, &ow);

  OnnxModelBuilder b(13);
  b.Input("x", {1, kDeconvChannels, kDeconvHeight, kDeconvWidth});
  const std::vector<int64_t> wdims = {kDeconvChannels, win.cout_per_group, win.kh, win.kw};
  if (weight_is_input) {
    b.Input("w", wdims);
  } else {
    ::onnx::TensorProto* t = b.FloatInit("w", wdims);
    for (size_t i = 0; i < w.size(); ++i) t->set_float_data(static_cast<int>(i), w[i]);
  }
  ::onnx::TensorProto* bt = b.FloatInit("bias", {static_cast<int64_t>(bias.size())});
  for (size_t i = 0; i < bias.size(); ++i) bt->set_float_data(static_cast<int>(i), bias[i]);
  ::onnx::NodeProto* n = b.Node("ConvTranspose", {"x", "w", "bias"}, {"y"}, "deconv");
  OnnxModelBuilder::Int(n, "group", win.groups);
  OnnxModelBuilder::Ints(n, "strides", {win.sh, win.sw});
  OnnxModelBuilder::Ints(n, "dilations", {win.dh, win.dw});
  OnnxModelBuilder::Ints(n, "output_padding", {win.op_h, win.op_w});
  if (pads == DeconvPadsFrom::kAttribute) {
    OnnxModelBuilder::Ints(n, "pads", {win.pad_top, win.pad_left, win.pad_bottom, win.pad_right});
  } else if (pads == DeconvPadsFrom::kOutputShape) {
    OnnxModelBuilder::Ints(n, "output_shape", {oh, ow});
  } else {
    OnnxModelBuilder::String(n, "auto_pad", "SAME_LOWER");
  }
  b.Output("y");
  const fs::path dir =
      fs::path(::testing::TempDir()) / ("deconv_" + name + "_" + std::to_string(getpid()));
  fs::create_directories(dir);
  std::ofstream(dir / "model.onnx", std::ios::binary) << b.Bytes();
  WriteTensorProtoFile((dir / "x.pb").string(), {1, kDeconvChannels, kDeconvHeight, kDeconvWidth},
                       x);
  WriteTensorProtoFile((dir / "w.pb").string(), wdims, w);
  WriteTensorProtoFile((dir / "want.pb").string(), {1, win.groups * win.cout_per_group, oh, ow},
                       want);
  ModelRunOptions run;
  run.model = (dir / "model.onnx").string();
  run.inputs = {"x=" + (dir / "x.pb").string()};
  if (weight_is_input) run.inputs.push_back("w=" + (dir / "w.pb").string());
  run.expect = {(dir / "want.pb").string()};
  std::ostringstream out, err;
  EXPECT_EQ(RunModelRunCommand(run, out, err), 0) << name << "\n" << out.str() << err.str();
}

TEST(ModelConvTransposeTest, GroupedUnevenWindowMatchesTheScatterWithAConstantOrInputWeight) {
  DeconvWindow win;
  win.groups = 2;
  win.cout_per_group = 3;
  win.kh = 3;
  win.kw = 2;
  win.sh = 2;
  win.sw = 3;
  win.dh = 1;
  win.dw = 2;
  win.pad_top = 1;
  win.pad_left = 0;
  win.pad_bottom = 2;
  win.pad_right = 1;
  win.op_h = 1;
  ExpectMatchesNaive("constant_weight", win, DeconvPadsFrom::kAttribute, false);
  ExpectMatchesNaive("input_weight", win, DeconvPadsFrom::kAttribute, true);
}

// ONNX's reference: with output_shape (and SAME_LOWER) the larger half of an odd padding total
// goes first. Here the totals are 3 (rows: 9 full rows, 6 asked) and 1 (columns: 4 and 3).
TEST(ModelConvTransposeTest, AnOutputShapeWithAnOddPaddingTotalPutsTheLargerHalfFirst) {
  DeconvWindow win;
  win.kh = 3;
  win.kw = 2;
  win.sh = 2;
  win.pad_top = 2;
  win.pad_bottom = 1;
  win.pad_left = 1;
  win.pad_right = 0;
  ExpectMatchesNaive("output_shape", win, DeconvPadsFrom::kOutputShape, false);
}

// SAME_LOWER: the output is the input times the stride; the larger half first. Rows: 2*3 + 3 = 9
// full, 8 asked, total 1; columns: 2 + 3 = 5 full, 3 asked, total 2.
TEST(ModelConvTransposeTest, SameLowerPadsGiveInputTimesStride) {
  DeconvWindow win;
  win.kh = 3;
  win.kw = 3;
  win.sh = 2;
  win.pad_top = 1;
  win.pad_bottom = 0;
  win.pad_left = 1;
  win.pad_right = 1;
  ExpectMatchesNaive("same_lower", win, DeconvPadsFrom::kSameLower, false);
}

}  // namespace
}  // namespace tunefarm::tools
