// `tunefarm tune` as the command line runs it: usage errors are refused before anything is
// measured, and a small run records its trials and prints the best config.
#include "tools/commands/tune_command.h"

#include <filesystem>
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <sstream>

#include "runtime/cuda/cuda_device.h"
#include "tests/testing/files.h"
#include "tests/unit/tools/command_outcome.h"
#include "tuner/record_store.h"

namespace tunefarm::tools {
namespace {

using ::testing::HasSubstr;

CommandOutcome Invoke(const TuneCommandOptions& o) {
  std::ostringstream out, err;
  int code = RunTuneCommand(o, nullptr, out, err);
  return {code, out.str(), err.str()};
}

std::string FreshTuneDb(const std::string& name) {
  std::filesystem::path dir = std::filesystem::path(::testing::TempDir()) / ("tf_tunecmd_" + name);
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  return (dir / "tf.db").string();
}

TEST(TuneCommandTest, UsageErrorsAreRefusedBeforeMeasuring) {
  TuneCommandOptions o;
  o.db = FreshTuneDb("usage");
  CommandOutcome none = Invoke(o);
  EXPECT_EQ(none.code, 2);
  EXPECT_THAT(none.err, HasSubstr("give exactly one of --workload KEY and --template FILE.te"));

  o.workload = "matmul:8,8,8";
  o.tuner = "annealing";
  CommandOutcome tuner = Invoke(o);
  EXPECT_EQ(tuner.code, 2);
  EXPECT_THAT(tuner.err, HasSubstr("unknown tuner 'annealing' (known: xgb, random, grid, ga)"));

  o.tuner = "random";
  o.workload = "matmull:8,8,8";
  CommandOutcome unknown = Invoke(o);
  EXPECT_EQ(unknown.code, 2);
  EXPECT_THAT(unknown.err, HasSubstr("unknown template 'matmull'"));

  o.workload = "matmul:8,8,8";
  o.target = "llvm -mtriple=aarch64-linux-gnu -mattr=+neon";
  CommandOutcome cross = Invoke(o);
  EXPECT_EQ(cross.code, 2);
  EXPECT_THAT(cross.err, HasSubstr("cannot measure"));

  o.target = "llvm";
  o.trials = 0;
  EXPECT_EQ(Invoke(o).code, 2);
}

TEST(TuneCommandTest, CudaNeedsAGpuHere) {
  if (runtime::cuda::CudaDevice::Open(0).ok()) GTEST_SKIP() << "this machine has a GPU";
  TuneCommandOptions o;
  o.db = FreshTuneDb("cuda");
  o.workload = "conv2d:1,8,8,8,8,3,3,1,1";
  o.target = "cuda";
  CommandOutcome r = Invoke(o);
  EXPECT_EQ(r.code, 1);
  EXPECT_THAT(r.err, HasSubstr("cannot measure 'cuda' on this machine: no CUDA device present"));
  EXPECT_THAT(r.err, HasSubstr("--tracker"));
  EXPECT_FALSE(std::filesystem::exists(o.db));  // refused before anything was stored
}

TEST(TuneCommandTest, ASmallRunRecordsEveryTrialAndPrintsTheBest) {
  TuneCommandOptions o;
  o.db = FreshTuneDb("small");
  o.workload = "matmul:16,16,16";
  o.tuner = "random";
  o.trials = 5;
  o.batch_size = 4;
  o.measure.repeat = 1;
  o.measure.min_repeat_ms = 1;
  o.measure.threads = 1;
  o.progress = true;  // not a terminal: one line per batch
  CommandOutcome r = Invoke(o);
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_THAT(r.out, HasSubstr("tuning matmul:16,16,16:float32 on llvm"));
  EXPECT_THAT(r.out, HasSubstr("trials=5 errors=0"));
  EXPECT_THAT(r.out, HasSubstr("best matmul:16,16,16:float32 on local-"));
  EXPECT_THAT(r.out, HasSubstr("-1t: median_ms="));  // --threads keeps its timings apart
  EXPECT_THAT(r.err, HasSubstr("[5/5]  best "));
  // The speedup comes from timing the best configs and the default again in turns, never from
  // the records; the re-timing adds no records.
  EXPECT_THAT(r.out, HasSubstr("verified here ("));
  EXPECT_THAT(r.out, HasSubstr("tuned against default: "));
  EXPECT_THAT(r.out, HasSubstr("(95 % CI, 10 rounds)"));
  auto store = tuner::RecordStore::Open(o.db);
  ASSERT_TRUE(store.ok());
  EXPECT_EQ(*(*store)->RecordCount(), 5);
  auto flops = (*store)->WorkloadFlops("matmul:16,16,16:float32");
  ASSERT_TRUE(flops.ok() && flops->has_value());
  EXPECT_EQ(**flops, 2.0 * 16 * 16 * 16);
}

}  // namespace
}  // namespace tunefarm::tools
