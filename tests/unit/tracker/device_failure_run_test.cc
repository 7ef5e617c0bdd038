// A job's run of results that failed on its devices: what counts, what ends it, and the reason
// the job stops with.
#include "tracker/device_failure_run.h"

#include <gtest/gtest.h>

namespace tunefarm::tracker {
namespace {

using tuner::ErrorKind;

TEST(DeviceFailureRunTest, SixteenDeviceFailuresInARowPauseTheJob) {
  DeviceFailureRun run;
  for (int i = 1; i < DeviceFailureRun::kLimit; ++i) {
    EXPECT_FALSE(run.Add(ErrorKind::kRuntimeError, "rpi", "exited with status 127")) << i;
  }
  EXPECT_TRUE(run.Add(ErrorKind::kRunTimeout, "rpi", "no result within 10 s"));
  EXPECT_EQ(run.Reason(),
            "the last 16 trials failed on the devices of 'rpi' (run_timeout: no result "
            "within 10 s); check the devices (tunefarm workers)");
}

TEST(DeviceFailureRunTest, ASuccessEndsTheRunAndTheCandidatesOwnErrorsDoNotCount) {
  DeviceFailureRun run;
  for (int i = 0; i < DeviceFailureRun::kLimit - 1; ++i) run.Add(ErrorKind::kWorkerLost, "k", "");
  EXPECT_FALSE(run.Add(ErrorKind::kOk, "k", ""));
  EXPECT_EQ(run.length(), 0);
  for (int i = 0; i < 100; ++i) {
    EXPECT_FALSE(run.Add(ErrorKind::kBuildError, "k", "bad config"));
    EXPECT_FALSE(run.Add(ErrorKind::kWrongAnswer, "k", "mismatch"));
  }
  EXPECT_EQ(run.length(), 0);
  run.Add(ErrorKind::kRuntimeError, "k", "SIGSEGV");
  run.Add(ErrorKind::kWrongAnswer, "k", "mismatch");
  EXPECT_EQ(run.length(), 1) << "a wrong answer neither counts nor ends the run";
}

}  // namespace
}  // namespace tunefarm::tracker
