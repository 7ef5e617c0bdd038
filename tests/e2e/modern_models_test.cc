// The models beyond the classic CNNs against PyTorch: a vision transformer (ViT-B/16), ConvNeXt-T
// (LayerNorm, GELU, 7x7 depthwise), EfficientNet-B0 (squeeze-and-excitation, SiLU), ShuffleNet-v2
// (channel shuffle through shape arithmetic), RegNet-Y-400MF (grouped convolutions), a
// segmentation model with an upsampling head (LR-ASPP, Resize), a 4-layer BERT-style
// transformer encoder and a decoder of transposed convolutions (grouped, dilated,
// output_padding), all with random weights, exported at opset 17 by Debian's python3-torch
// (scripts/export-models.py). Each builds from its ONNX file and matches PyTorch within 1e-4 of
// the output's largest magnitude at batch 1 and batch 4 (and a 160x224 image where the model
// takes any size).
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <sstream>

#include "tests/testing/exported_model_test.h"
#include "tools/commands/model_run_command.h"

namespace tunefarm::tools {
namespace {

using ::testing::HasSubstr;

struct ModernModel {
  const char* name;
  const char* image;  // the input's dimensions after the batch
  bool any_size;      // also checked at 160x224
};

class ModernModelsTest : public fixtures::ExportedModelTest<ModernModel> {
 protected:
  void ExpectMatches(const std::string& variant, const std::string& input_shape) {
    ModelRunOptions run;
    run.model = File(".onnx");
    run.inputs = {"input=" + File(variant + ".input.npy")};
    run.expect = {File(variant + ".output.npy")};
    run.threads = 2;
    ASSERT_TRUE(driver::ParseInputShape(input_shape, &run.compile.input_shapes).ok());
    std::ostringstream out, err;
    EXPECT_EQ(RunModelRunCommand(run, out, err), 0) << GetParam().name << variant << ":\n"
                                                    << out.str() << err.str();
    EXPECT_THAT(out.str(), HasSubstr("max_abs_err="));
  }
};

TEST_P(ModernModelsTest, BatchOneAndFourMatchPytorch) {
  const std::string image = GetParam().image;
  ExpectMatches("", "input=1," + image);
  ExpectMatches(".b4", "input=4," + image);
  if (GetParam().any_size) ExpectMatches(".wide", "input=1,3,160,224");
}

INSTANTIATE_TEST_SUITE_P(
    Models, ModernModelsTest,
    ::testing::Values(ModernModel{"vit_b_16", "3,224,224", false},
                      ModernModel{"convnext_tiny", "3,224,224", true},
                      ModernModel{"efficientnet_b0", "3,224,224", true},
                      ModernModel{"shufflenet_v2_x1_0", "3,224,224", true},
                      ModernModel{"regnet_y_400mf", "3,224,224", true},
                      ModernModel{"lraspp_mobilenet_v3_large", "3,224,224", false},
                      ModernModel{"transformer_encoder", "128,256", false},
                      ModernModel{"conv_transpose_decoder", "3,224,224", true}),
    [](const ::testing::TestParamInfo<ModernModel>& info) { return std::string(info.param.name); });

}  // namespace
}  // namespace tunefarm::tools
