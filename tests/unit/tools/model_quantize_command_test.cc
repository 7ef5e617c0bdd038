// `tunefarm model quantize`: the summary it prints for a model it quantizes, and its one-line
// refusals (a bad --method, a calibration file that does not fit the input) with their exit codes.
#include "tools/commands/model_quantize_command.h"

#include <filesystem>
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <sstream>
#include <unistd.h>

#include "tests/testing/files.h"
#include "tests/unit/tools/model_records_fixture.h"
#include "tools/commands/exit_codes.h"

namespace tunefarm::tools {
namespace {

using ::testing::HasSubstr;
namespace fs = std::filesystem;

// A float TensorProto file of `dims`, values cycling through [-1, 1].
std::string CalibrationFile(const std::string& name, const std::vector<int64_t>& dims) {
  ::onnx::TensorProto t;
  t.set_data_type(::onnx::TensorProto::FLOAT);
  int64_t n = 1;
  for (int64_t d : dims) {
    t.add_dims(d);
    n *= d;
  }
  for (int64_t i = 0; i < n; ++i) t.add_float_data(static_cast<float>(i % 21) / 10 - 1);
  return fixtures::WriteTempFile(name, t.SerializeAsString());
}

ModelQuantizeOptions Options() {
  ModelQuantizeOptions o;
  o.file = testing::ChainedConvsModel();
  o.output = ::testing::TempDir() + "/chained_int8_" + std::to_string(getpid()) + ".onnx";
  o.calibrate = {CalibrationFile("calibration.pb", {1, 3, 8, 8})};
  return o;
}

TEST(ModelQuantizeCommandTest, PrintsWhatItQuantizedAndHowFarTheOutputMoved) {
  ModelQuantizeOptions o = Options();
  std::ostringstream out, err;
  ASSERT_EQ(RunModelQuantizeCommand(o, out, err), kExitOk) << err.str();
  EXPECT_THAT(out.str(), HasSubstr("wrote " + o.output +
                                   ": 2 ops quantized (3 activations "
                                   "uint8, 2 weights int8 per output channel), calibrated on 1 "
                                   "samples (minmax)"));
  EXPECT_THAT(out.str(), HasSubstr("int8 against float on the calibration inputs: largest "
                                   "difference "));
  EXPECT_TRUE(fs::exists(o.output));
  fs::remove(o.output);
}

TEST(ModelQuantizeCommandTest, ABadMethodOrACalibrationFileThatDoesNotFitIsRefused) {
  ModelQuantizeOptions o = Options();
  o.method = "entropy";
  std::ostringstream out, err;
  EXPECT_EQ(RunModelQuantizeCommand(o, out, err), kExitUsage);
  EXPECT_EQ(err.str(), "tunefarm: --method must be minmax or percentile, not 'entropy'\n");
  o = Options();
  o.calibrate = {CalibrationFile("wrong.pb", {1, 3, 8, 7})};
  std::ostringstream out2, err2;
  EXPECT_EQ(RunModelQuantizeCommand(o, out2, err2), kExitFailed);
  EXPECT_THAT(err2.str(), HasSubstr("calibration sample 1: input 'image' is [1,3,8,8] float32, "
                                    "the sample holds [1,3,8,7] float32"));
  EXPECT_FALSE(fs::exists(o.output));
  o.calibrate = {"/nonexistent/calibration.npy"};
  std::ostringstream out3, err3;
  EXPECT_EQ(RunModelQuantizeCommand(o, out3, err3), kExitFailed);
  EXPECT_THAT(err3.str(), HasSubstr("--calibrate /nonexistent/calibration.npy"));
}

}  // namespace
}  // namespace tunefarm::tools
