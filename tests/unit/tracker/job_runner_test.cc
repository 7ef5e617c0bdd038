// ValidateJobSpec: what Submit checks before it makes a task, each refusal naming the field.
#include "tracker/job_runner.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <limits>
#include <string>

namespace tunefarm::tracker {
namespace {

using ::testing::HasSubstr;

farm_api::JobSpec Spec() {
  farm_api::JobSpec s;
  s.workload = "matmul:16,16,16";
  s.device_key = "pi";
  s.trials = 4;
  return s;
}

TEST(JobRunnerTest, ValidSpecPasses) { EXPECT_TRUE(ValidateJobSpec(Spec(), 100).ok()); }

// A script's dtype used to be ignored, typo or not.
TEST(JobRunnerTest, UnknownDtypeIsRefusedListingTheKnownOnes) {
  farm_api::JobSpec s = Spec();
  s.workload.clear();
  s.script_source = "n = var('n')\n";
  s.dtype = "float99";
  absl::Status st = ValidateJobSpec(s, 100);
  EXPECT_EQ(st.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(st.message(),
            "dtype 'float99' is not a known element type; known: bool, int8, int16, int32, int64, "
            "uint8, uint16, uint32, uint64, float16, float32, float64");
  s.dtype = "float16";
  EXPECT_TRUE(ValidateJobSpec(s, 100).ok());
}

TEST(JobRunnerTest, ADeviceKeyIsPrintableAsciiOfBoundedLength) {
  farm_api::JobSpec s = Spec();
  for (const std::string& bad :
       {std::string(""), std::string("rasp 4b"), std::string("pi\x1f"), std::string("pi\n"),
        std::string("ra\xc3\xa9"), std::string(129, 'k')}) {
    s.device_key = bad;
    absl::Status st = ValidateJobSpec(s, 100);
    EXPECT_EQ(st.code(), absl::StatusCode::kInvalidArgument) << bad;
    EXPECT_THAT(std::string(st.message()), HasSubstr("device_key")) << bad;
  }
  s.device_key = std::string(128, 'k');
  EXPECT_TRUE(ValidateJobSpec(s, 100).ok());
  s.device_key = "rasp4b_aarch64-v2.1";
  EXPECT_TRUE(ValidateJobSpec(s, 100).ok());
}

TEST(JobRunnerTest, OverLongScriptNameIsRefused) {
  farm_api::JobSpec s = Spec();
  s.workload.clear();
  s.script_source = "n = var('n')\n";
  s.script_name = std::string(4000, 'x') + ".te";
  EXPECT_THAT(std::string(ValidateJobSpec(s, 100).message()),
              HasSubstr("script_name is 4003 bytes long, over the limit of 255"));
}

TEST(JobRunnerTest, MeasureNumbersAreChecked) {
  farm_api::JobSpec s = Spec();
  s.measure.run_timeout_s = std::numeric_limits<double>::infinity();
  EXPECT_EQ(ValidateJobSpec(s, 100).message(),
            "measure.run_timeout_s must be a finite number in (0, 86400] s, got inf");
}

}  // namespace
}  // namespace tunefarm::tracker
