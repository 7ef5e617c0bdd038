#include "tools/commands/best_command.h"

#include <filesystem>
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <sstream>

#include "tuner/record_store.h"

namespace tunefarm::tools {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

std::string FreshDb(const std::string& name) {
  std::filesystem::path dir = std::filesystem::path(::testing::TempDir()) / ("tf_best_" + name);
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  return (dir / "tf.db").string();
}

tuner::Record Sample(const std::string& device, double seconds, const std::string& config) {
  tuner::Record r;
  r.workload_key = "matmul:64,64,64:float32";
  r.target = "llvm";
  r.device_key = device;
  r.config_json = config;
  r.repeat_seconds = {seconds};
  r.measured_by = "local";
  r.timestamp_ms = 1;
  r.tunefarm_version = "0.4.0";
  return r;
}

TEST(BestCommandTest, PrintsTheFastestConfigPerDeviceWithGflops) {
  std::string db = FreshDb("per_device");
  {
    auto store = tuner::RecordStore::Open(db);
    ASSERT_TRUE(store.ok());
    ASSERT_TRUE((*store)->PutWorkload("matmul:64,64,64:float32", 2.0 * 64 * 64 * 64).ok());
    ASSERT_TRUE((*store)
                    ->InsertBatch({Sample("a", 2e-4, R"({"t":1})"), Sample("a", 1e-4, R"({"t":2})"),
                                   Sample("b", 3e-4, R"({"t":3})")})
                    .ok());
  }
  BestOptions o;
  o.db = db;
  o.workload = "matmul:64,64,64";  // dtype defaults to float32
  std::ostringstream out, err;
  ASSERT_EQ(RunBestCommand(o, out, err), 0) << err.str();
  EXPECT_THAT(out.str(), HasSubstr("device=a  timing=hot  median_ms=0.1000  gflops=5.24"));
  EXPECT_THAT(out.str(), HasSubstr(R"(config={"t":2})"));
  EXPECT_THAT(out.str(), HasSubstr("device=b"));
  EXPECT_THAT(out.str(), Not(HasSubstr(R"({"t":1})")));

  o.device = "b";
  std::ostringstream only_b, err_b;
  ASSERT_EQ(RunBestCommand(o, only_b, err_b), 0);
  EXPECT_THAT(only_b.str(), Not(HasSubstr("device=a")));
}

TEST(BestCommandTest, NoRecordAndBadKeysAreClearErrors) {
  std::string db = FreshDb("errors");
  { ASSERT_TRUE(tuner::RecordStore::Open(db).ok()); }
  BestOptions o;
  o.db = db;
  o.workload = "conv2d:1,3,8,8,4,3,3,1,1:float32";
  std::ostringstream out, err;
  EXPECT_EQ(RunBestCommand(o, out, err), 1);
  EXPECT_THAT(err.str(), HasSubstr("no successful record of conv2d:1,3,8,8,4,3,3,1,1:float32"));

  // A key no template takes has no records to look for: a usage error, as in tune and build.
  o.workload = "conv2d:1,2,3:float32";
  std::ostringstream out_arity, err_arity;
  EXPECT_EQ(RunBestCommand(o, out_arity, err_arity), 2);
  EXPECT_THAT(err_arity.str(), HasSubstr("conv2d takes 9 arguments"));

  o.workload = "matmul:1,x";
  std::ostringstream out2, err2;
  EXPECT_EQ(RunBestCommand(o, out2, err2), 2);
  EXPECT_THAT(err2.str(), HasSubstr("argument 'x' is not an integer"));

  o.workload = "matmul:1,1,1";
  o.target = "llvm -mtriple=mips-linux-gnu";
  std::ostringstream out3, err3;
  EXPECT_EQ(RunBestCommand(o, out3, err3), 2);
  EXPECT_THAT(err3.str(), HasSubstr("bad target"));

  o.target = "";
  o.db = db + ".missing";
  std::ostringstream out4, err4;
  EXPECT_EQ(RunBestCommand(o, out4, err4), 1);
  EXPECT_THAT(err4.str(), HasSubstr("no record database"));
}

}  // namespace
}  // namespace tunefarm::tools
