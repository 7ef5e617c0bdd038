// `tunefarm model build|run|test` on ONNX's own backend test cases (Debian libonnx-testdata): a
// case builds into a module that runs alone and matches the expected output file; a mismatch, a
// wrong input shape and an unsupported op are reported as such.
#include <filesystem>
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <sstream>
#include <unistd.h>

#include "tests/unit/compiler/frontend/onnx/onnx_node_cases.h"
#include "tools/commands/model_build_command.h"
#include "tools/commands/model_run_command.h"
#include "tools/commands/model_test_command.h"

namespace tunefarm::tools {
namespace {

using ::testing::HasSubstr;
namespace fs = std::filesystem;

const fs::path kNode = "/usr/share/libonnx-testdata/data/node";

#define REQUIRE_TESTDATA() \
  if (!fs::is_directory(kNode)) GTEST_SKIP() << kNode << " missing (libonnx-testdata)"

TEST(ModelCommandsTest, BackendCasesBuildRunAndMatch) {
  REQUIRE_TESTDATA();
  ModelTestOptions options;
  for (const char* c :
       {"test_conv_with_strides_padding", "test_batchnorm_example", "test_maxpool_2d_default",
        "test_averagepool_2d_pads", "test_gemm_default_single_elem_vector_bias",
        "test_softmax_axis_1", "test_reshape_reduced_dims", "test_relu"}) {
    options.cases.push_back((kNode / c).string());
  }
  std::ostringstream out, err;
  EXPECT_EQ(RunModelTestCommand(options, out, err), 0) << out.str() << err.str();
  EXPECT_THAT(out.str(), HasSubstr("passed test_batchnorm_example\n"));
  EXPECT_THAT(out.str(), HasSubstr("8 passed, 0 failed, 0 unsupported\n"));
}

TEST(ModelCommandsTest, AnUnsupportedOpIsCountedAsSuch) {
  REQUIRE_TESTDATA();
  ModelTestOptions options;
  options.cases = {(kNode / "test_relu").string(), (kNode / "test_top_k").string()};
  std::ostringstream out, err;
  EXPECT_EQ(RunModelTestCommand(options, out, err), 1);
  EXPECT_THAT(out.str(), HasSubstr("unsupported test_top_k: "));
  EXPECT_THAT(out.str(), HasSubstr("1 passed, 0 failed, 1 unsupported\n"));
}

// Float16 and float64 outputs are compared too (within the tolerance, read exactly): a max of
// float64 against the min's expected values fails on its first differing element.
TEST(ModelCommandsTest, HalfAndDoubleOutputsAreComparedElementByElement) {
  REQUIRE_TESTDATA();
  ModelTestOptions options;
  for (const char* c :
       {"test_cast_FLOAT_to_DOUBLE", "test_cast_FLOAT_to_FLOAT16", "test_max_float64",
        "test_min_float16", "test_mod_mixed_sign_float64", "test_mod_mixed_sign_int32"}) {
    options.cases.push_back((kNode / c).string());
  }
  std::ostringstream out, err;
  EXPECT_EQ(RunModelTestCommand(options, out, err), 0) << out.str() << err.str();
  EXPECT_THAT(out.str(), HasSubstr("6 passed, 0 failed, 0 unsupported\n"));

  const fs::path swapped = fs::path(::testing::TempDir()) / "max_float64_wanting_min";
  fs::remove_all(swapped);
  fs::copy(kNode / "test_max_float64", swapped, fs::copy_options::recursive);
  fs::copy_file(kNode / "test_min_float64" / "test_data_set_0" / "output_0.pb",
                swapped / "test_data_set_0" / "output_0.pb", fs::copy_options::overwrite_existing);
  ModelTestOptions wrong;
  wrong.cases = {swapped.string()};
  std::ostringstream wrong_out, wrong_err;
  EXPECT_EQ(RunModelTestCommand(wrong, wrong_out, wrong_err), 1);
  EXPECT_THAT(wrong_out.str(), ::testing::ContainsRegex("FAILED max_float64_wanting_min: "
                                                        "test_data_set_0 output 0: element [0-9]+: "
                                                        "got [-0-9.e]+, want [-0-9.e]+"));
  fs::remove_all(swapped);
}

// Pow of every type pair ONNX's cases have: an integer base in its own type (through double), an
// exponent of another type cast to the base's, constant or not; and Clip's int8 bounds.
TEST(ModelCommandsTest, PowOfIntegerBasesAndMixedTypesAndInt8ClipBoundsMatch) {
  REQUIRE_TESTDATA();
  ModelTestOptions options;
  for (const char* c : {"test_pow_types_int32_int32", "test_pow_types_int64_float32",
                        "test_pow_types_int32_float32", "test_pow_types_float32_uint32",
                        "test_pow_types_float32_uint64", "test_pow_types_float",
                        "test_clip_default_int8_min", "test_clip_default_int8_max"}) {
    options.cases.push_back((kNode / c).string());
  }
  std::ostringstream out, err;
  EXPECT_EQ(RunModelTestCommand(options, out, err), 0) << out.str() << err.str();
  EXPECT_THAT(out.str(), HasSubstr("8 passed, 0 failed, 0 unsupported\n"));
}

// Every ArgMax, ArgMin and CumSum case ONNX has: ties resolved to the first index (the last with
// select_last_index), negative axes, kept and dropped axes; running sums inclusive or exclusive,
// forward or reversed.
TEST(ModelCommandsTest, EveryArgMaxArgMinAndCumSumCaseMatches) {
  REQUIRE_TESTDATA();
  ModelTestOptions options;
  for (const fs::directory_entry& e : fs::directory_iterator(kNode)) {
    const std::string name = e.path().filename().string();
    if (name.rfind("test_argmax_", 0) == 0 || name.rfind("test_argmin_", 0) == 0 ||
        name.rfind("test_cumsum_", 0) == 0) {
      options.cases.push_back(e.path().string());
    }
  }
  ASSERT_EQ(options.cases.size(), 39u) << "ONNX's 16 ArgMax, 16 ArgMin and 7 CumSum cases";
  std::ostringstream out, err;
  EXPECT_EQ(RunModelTestCommand(options, out, err), 0) << out.str() << err.str();
  EXPECT_THAT(out.str(), HasSubstr("39 passed, 0 failed, 0 unsupported\n"));
}

// IsInf (either sign or one), IsNaN, EyeLike (off the diagonal, another dtype), OneHot (negative
// indices and axes, float indices), Not of opset 1 (its only definition), GatherND and Einsum.
TEST(ModelCommandsTest, EveryIsInfIsNanEyeLikeOneHotNotGatherNdAndEinsumCaseMatches) {
  REQUIRE_TESTDATA();
  ModelTestOptions options;
  for (const fs::directory_entry& e : fs::directory_iterator(kNode)) {
    const std::string name = e.path().filename().string();
    for (const char* prefix : {"test_isinf", "test_isnan", "test_eyelike_", "test_onehot_",
                               "test_not_", "test_gathernd_", "test_einsum_"}) {
      if (name.rfind(prefix, 0) == 0) options.cases.push_back(e.path().string());
    }
  }
  ASSERT_EQ(options.cases.size(), 22u);
  std::ostringstream out, err;
  EXPECT_EQ(RunModelTestCommand(options, out, err), 0) << out.str() << err.str();
  EXPECT_THAT(out.str(), HasSubstr("22 passed, 0 failed, 0 unsupported\n"));
}

// Dropout passes its input through with an all-true mask in inference and at a ratio of 0; in
// training mode with a ratio its masks are random, which a deployed module has no use for.
TEST(ModelCommandsTest, DropoutDropsNothingAndRandomTrainingMasksAreUnsupported) {
  REQUIRE_TESTDATA();
  ModelTestOptions options;
  for (const fs::directory_entry& e : fs::directory_iterator(kNode)) {
    const std::string name = e.path().filename().string();
    if (name.find("dropout") != std::string::npos) options.cases.push_back(e.path().string());
  }
  ASSERT_EQ(options.cases.size(), 12u);
  std::ostringstream out, err;
  EXPECT_EQ(RunModelTestCommand(options, out, err), 1) << "the random ones are unsupported";
  EXPECT_THAT(out.str(), HasSubstr("8 passed, 0 failed, 4 unsupported\n")) << out.str();
  EXPECT_THAT(out.str(), HasSubstr("passed test_training_dropout_zero_ratio_mask\n"));
}

// ONNX's NegativeLogLikelihoodLoss and SoftmaxCrossEntropyLoss cases (their _expanded twins
// test the ops they expand to): every reduction, with and without weights, ignore_index inside
// and outside the classes, up to five spatial axes, and the log-probabilities output.
TEST(ModelCommandsTest, EveryLossCaseMatches) {
  REQUIRE_TESTDATA();
  ModelTestOptions options;
  for (const fs::directory_entry& e : fs::directory_iterator(kNode)) {
    const std::string name = e.path().filename().string();
    const bool loss = name.rfind("test_nllloss_", 0) == 0 || name.rfind("test_sce_", 0) == 0;
    if (loss && name.find("_expanded") == std::string::npos) {
      options.cases.push_back(e.path().string());
    }
  }
  ASSERT_EQ(options.cases.size(), 52u);
  std::ostringstream out, err;
  EXPECT_EQ(RunModelTestCommand(options, out, err), 0) << out.str() << err.str();
  EXPECT_THAT(out.str(), HasSubstr("52 passed, 0 failed, 0 unsupported\n"));
}

// Every float32 case of the ops the graph level lists (onnx_node_cases.h), built and run: none
// fails; the unsupported ones are 3-D pooling, training-mode batch norm, Resize's
// tf_crop_and_resize and zero-size tensors.
TEST(ModelCommandsTest, EveryListedBackendCaseBuildsAndRunsOrIsUnsupported) {
  REQUIRE_TESTDATA();
  ModelTestOptions options;
  for (const auto& entry : fs::directory_iterator(kNode)) {
    ::onnx::ModelProto model;
    if (frontend::onnx::testing::ReadProto(entry.path() / "model.onnx", model) &&
        frontend::onnx::testing::IsListedFloatCase(model)) {
      options.cases.push_back(entry.path().string());
    }
  }
  std::sort(options.cases.begin(), options.cases.end());
  ASSERT_GT(options.cases.size(), 150u);
  std::ostringstream out, err;
  RunModelTestCommand(options, out, err);
  EXPECT_THAT(out.str(), HasSubstr(" passed, 0 failed, ")) << out.str();
  EXPECT_THAT(out.str(), ::testing::Not(HasSubstr("\nFAILED "))) << out.str();
}

// ONNX's cases of linear quantization, QDQ and QOperator: their integer outputs match exactly.
TEST(ModelCommandsTest, TheQuantizationCasesMatchExactly) {
  REQUIRE_TESTDATA();
  ModelTestOptions options;
  for (const char* name :
       {"test_quantizelinear", "test_dequantizelinear", "test_qlinearconv", "test_qlinearmatmul_2D",
        "test_qlinearmatmul_3D", "test_dynamicquantizelinear",
        "test_dynamicquantizelinear_max_adjusted", "test_dynamicquantizelinear_min_adjusted",
        "test_matmulinteger", "test_basic_convinteger", "test_convinteger_with_padding",
        "test_convinteger_without_padding"}) {
    options.cases.push_back((kNode / name).string());
  }
  std::ostringstream out, err;
  RunModelTestCommand(options, out, err);
  EXPECT_THAT(out.str(), HasSubstr("12 passed, 0 failed, 0 unsupported")) << out.str() << err.str();
}

TEST(ModelCommandsTest, ABuiltModuleRunsAloneAndChecksItsOutput) {
  REQUIRE_TESTDATA();
  const fs::path c = kNode / "test_conv_with_strides_padding";
  const std::string module = ::testing::TempDir() + "/conv_" + std::to_string(getpid()) + ".so";
  ModelBuildOptions build;
  build.file = (c / "model.onnx").string();
  build.output = module;
  std::ostringstream out, err;
  ASSERT_EQ(RunModelBuildCommand(build, out, err), 0) << err.str();
  EXPECT_THAT(out.str(), HasSubstr("kernel fused_0_conv2d: conv2d template"));
  EXPECT_THAT(out.str(), HasSubstr("1 nodes in 1 kernels"));

  ModelRunOptions run;
  run.model = module;
  run.inputs = {(c / "test_data_set_0" / "input_0.pb").string()};
  run.expect = {(c / "test_data_set_0" / "output_0.pb").string()};
  run.time = true;
  run.threads = 1;
  std::ostringstream out2, err2;
  // The weight is the model's second input: the case passes it as data.
  run.inputs.push_back((c / "test_data_set_0" / "input_1.pb").string());
  EXPECT_EQ(RunModelRunCommand(run, out2, err2), 0) << out2.str() << err2.str();
  EXPECT_THAT(out2.str(), HasSubstr("max_abs_err="));
  EXPECT_THAT(out2.str(), HasSubstr(" ok\n"));
  EXPECT_THAT(out2.str(), HasSubstr("median_ms="));

  // Another case's expected output: same shape, other values.
  run.expect = {
      (kNode / "test_conv_with_strides_no_padding" / "test_data_set_0" / "output_0.pb").string()};
  std::ostringstream out3, err3;
  EXPECT_EQ(RunModelRunCommand(run, out3, err3), 1);
  std::remove(module.c_str());
}

TEST(ModelCommandsTest, AnInputOfTheWrongShapeIsRefusedNamingBothShapes) {
  REQUIRE_TESTDATA();
  ModelRunOptions run;
  run.model = (kNode / "test_relu" / "model.onnx").string();
  run.inputs = {(kNode / "test_maxpool_2d_default" / "test_data_set_0" / "input_0.pb").string()};
  std::ostringstream out, err;
  EXPECT_EQ(RunModelRunCommand(run, out, err), 1);
  EXPECT_THAT(err.str(), HasSubstr("input 'x' is [3,4,5]"));
  EXPECT_THAT(err.str(), HasSubstr("holds [1,3,32,32]"));
}

TEST(ModelCommandsTest, ABadOrForeignTargetIsAUsageErrorBeforeAnythingIsBuilt) {
  REQUIRE_TESTDATA();
  const std::string model = (kNode / "test_relu" / "model.onnx").string();
  for (const char* target : {"vulkan", "llvm -mtriple=aarch64-linux-gnu"}) {
    const bool foreign = std::string(target) != "vulkan";
    ModelRunOptions run;
    run.model = model;
    run.target = target;
    std::ostringstream out, err;
    EXPECT_EQ(RunModelRunCommand(run, out, err), 2) << target;
    EXPECT_THAT(err.str(), HasSubstr(foreign ? "is not this machine" : "bad target 'vulkan'"));
    ModelTestOptions test;
    test.cases = {(kNode / "test_relu").string()};
    test.target = target;
    std::ostringstream test_out, test_err;
    EXPECT_EQ(RunModelTestCommand(test, test_out, test_err), 2) << target;
    EXPECT_THAT(test_err.str(), HasSubstr(foreign ? "is not this machine" : "bad target"));
    EXPECT_EQ(test_out.str(), "") << "no case ran";
  }
  // `model build` writes for any target it can compile for, and refuses only a bad string.
  ModelBuildOptions build;
  build.file = model;
  build.output = ::testing::TempDir() + "/relu_bad_target.so";
  build.target = "vulkan";
  std::ostringstream out, err;
  EXPECT_EQ(RunModelBuildCommand(build, out, err), 2);
  EXPECT_THAT(err.str(), HasSubstr("--target: bad target 'vulkan'"));
  EXPECT_FALSE(fs::exists(build.output));
}

}  // namespace
}  // namespace tunefarm::tools
