// `tunefarm model build --db DB --device-key K`: a conv whose workload has a record in the
// database is built with that record's config (and says so): the NCHW template's for a conv that
// stays NCHW (its weight is an input), the blocked template's for one the layout rewrite blocks,
// with the record's blocks, unless a record in the block its input already has is nearly as fast
// (a layout transform costs more); a workload without one keeps its default; records from an
// incompatible space are refused naming the workload.
#include "tools/commands/model_records.h"

#include <filesystem>
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <sstream>
#include <unistd.h>

#include "absl/strings/str_cat.h"
#include "compiler/space/config_json.h"
#include "compiler/topi/conv2d_nchwc_knobs.h"
#include "tests/testing/files.h"
#include "tests/unit/compiler/frontend/onnx/onnx_model_builder.h"
#include "tools/commands/model_build_command.h"
#include "tuner/record_store.h"
#include "tuner/target_cpu.h"
#include "tuner/templates/template_registry.h"

namespace tunefarm::tools {
namespace {

using ::testing::HasSubstr;
using B = frontend::onnx::testing::OnnxModelBuilder;
namespace fs = std::filesystem;

// ONNX's test case: x [1,1,7,5], W [1,1,3,3], strides 2, pads 1.
const fs::path kCase = "/usr/share/libonnx-testdata/data/node/test_conv_with_strides_padding";
constexpr const char* kWorkload = "conv2d:1,1,7,5,1,3,3,2,1:float32";

std::string NewDatabase(const std::string& config_json, const std::string& workload = kWorkload) {
  const std::string path =
      ::testing::TempDir() + "/model_records_" + std::to_string(getpid()) + ".db";
  fs::remove(path);
  auto store = tuner::RecordStore::Open(path);
  EXPECT_TRUE(store.ok()) << store.status();
  tuner::Record r;
  r.workload_key = workload;
  r.target = *tuner::CanonicalTarget("llvm");
  r.device_key = "box";
  r.config_json = config_json;
  r.repeat_seconds = {0.0005, 0.0004, 0.0006};
  r.measured_by = "local";
  EXPECT_TRUE((*store)->Insert(r).ok());
  return path;
}

// A template's default config as JSON: a record of it is a tuned config all the same.
std::string TunedConfigJson(const std::string& workload = kWorkload) {
  absl::StatusOr<std::unique_ptr<tuner::Task>> task =
      tuner::CreateTask(*tuner::ParseWorkloadKey(workload), "llvm");
  EXPECT_TRUE(task.ok()) << task.status();
  absl::StatusOr<space::Config> config = (*task)->DefaultConfig();
  EXPECT_TRUE(config.ok()) << config.status();
  return space::ConfigToJson(*config);
}

TEST(ModelRecordsTest, ATunedWorkloadIsBuiltWithItsBestRecord) {
  if (!fs::is_directory(kCase)) GTEST_SKIP() << "libonnx-testdata missing";
  ModelBuildOptions build;
  build.file = (kCase / "model.onnx").string();
  build.output = ::testing::TempDir() + "/tuned_" + std::to_string(getpid()) + ".so";
  build.compile.db = NewDatabase(TunedConfigJson());
  build.compile.device_key = "box";
  std::ostringstream out, err;
  ASSERT_EQ(RunModelBuildCommand(build, out, err), 0) << err.str();
  EXPECT_THAT(out.str(), HasSubstr("1 tasks tuned, 0 on default configs"));
  EXPECT_THAT(out.str(), HasSubstr(std::string("tuned ") + kWorkload + ": 0.500 ms (1 groups)"));
  EXPECT_THAT(out.str(), HasSubstr("kernel fused_0_conv2d: conv2d template, tuned ("));

  // Another device key has no record: the default config.
  build.compile.device_key = "other";
  std::ostringstream out2, err2;
  ASSERT_EQ(RunModelBuildCommand(build, out2, err2), 0) << err2.str();
  EXPECT_THAT(out2.str(), HasSubstr("0 tasks tuned, 1 on default configs"));
  EXPECT_THAT(out2.str(), HasSubstr("conv2d template, default ("));
  fs::remove(build.output);
}

TEST(ModelRecordsTest, ABlockedConvTakesItsRecordsBlocksAndConfig) {
  // A conv with constant weights: the layout rewrite makes it conv2d_nchwc.
  B b(13);
  b.Input("image", {1, 3, 8, 8});
  b.FloatInit("w", {40, 3, 3, 3});
  B::Ints(b.Node("Conv", {"image", "w"}, {"c"}), "pads", {1, 1, 1, 1});
  b.Output("c");
  const std::string blocked = "conv2d_nchwc:1,3,8,8,40,3,3,1,1:float32";
  // The template's default with other blocks than the layout rewrite's defaults: one vector of
  // output channels where the default takes two (or two where it takes one), input channels
  // unblocked.
  absl::StatusOr<std::unique_ptr<tuner::Task>> task =
      tuner::CreateTask(*tuner::ParseWorkloadKey(blocked), "llvm");
  ASSERT_TRUE(task.ok()) << task.status();
  absl::StatusOr<space::Config> config = (*task)->DefaultConfig();
  ASSERT_TRUE(config.ok()) << config.status();
  const topi::CpuInfo cpu = *tuner::CpuInfoForTarget("llvm");
  absl::StatusOr<topi::Conv2dNchwcScheduleConfig> c =
      topi::Conv2dNchwcConfigFromKnobs(*config, cpu);
  ASSERT_TRUE(c.ok()) << c.status();
  const int64_t default_oc = c->oc_block;
  c->oc_block = default_oc == cpu.Lanes(4) ? 2 * cpu.Lanes(4) : cpu.Lanes(4);
  c->ic_block = 1;
  absl::StatusOr<space::Config> tuned = topi::Conv2dNchwcKnobsFromConfig((*task)->space(), *c);
  ASSERT_TRUE(tuned.ok()) << tuned.status();

  ModelBuildOptions build;
  build.file = fixtures::WriteTempFile("blocked.onnx", b.Bytes());
  build.output = ::testing::TempDir() + "/blocked_" + std::to_string(getpid()) + ".so";
  build.compile.db = NewDatabase(space::ConfigToJson(*tuned), blocked);
  build.compile.device_key = "box";
  std::ostringstream out, err;
  ASSERT_EQ(RunModelBuildCommand(build, out, err), 0) << err.str();
  EXPECT_THAT(out.str(), HasSubstr(std::string("tuned ") + blocked + ": 0.500 ms (1 groups)"));
  EXPECT_THAT(out.str(),
              HasSubstr(absl::StrCat("conv2d_nchwc template, tuned (ic 1, oc ", c->oc_block, ",")))
      << out.str();
  fs::remove(build.output);
}

// Two chained convs; the second's records: one that reads its input in the block the first
// conv writes, and one that reads it in blocks of 1 (a layout transform in between).
struct ChainedConvs {
  std::string model;
  std::string second = "conv2d_nchwc:1,40,8,8,40,3,3,1,1:float32";
  int64_t producer_block = 0;
  std::string same_block_json, other_block_json;
};

ChainedConvs MakeChainedConvs() {
  ChainedConvs c;
  B b(13);
  b.Input("image", {1, 3, 8, 8});
  b.FloatInit("w1", {40, 3, 3, 3});
  b.FloatInit("w2", {40, 40, 3, 3});
  B::Ints(b.Node("Conv", {"image", "w1"}, {"c1"}), "pads", {1, 1, 1, 1});
  B::Ints(b.Node("Conv", {"c1", "w2"}, {"c2"}), "pads", {1, 1, 1, 1});
  b.Output("c2");
  c.model = fixtures::WriteTempFile("chained.onnx", b.Bytes());
  const topi::CpuInfo cpu = *tuner::CpuInfoForTarget("llvm");
  auto config_of = [&](const std::string& workload) {
    absl::StatusOr<std::unique_ptr<tuner::Task>> task =
        tuner::CreateTask(*tuner::ParseWorkloadKey(workload), "llvm");
    EXPECT_TRUE(task.ok()) << task.status();
    return std::pair{std::move(*task),
                     *topi::Conv2dNchwcConfigFromKnobs(*(*task)->DefaultConfig(), cpu)};
  };
  // The first conv keeps its default: its output block is the default's oc block.
  c.producer_block = config_of("conv2d_nchwc:1,3,8,8,40,3,3,1,1:float32").second.oc_block;
  auto [task, config] = config_of(c.second);
  config.ic_block = c.producer_block;
  c.same_block_json = space::ConfigToJson(*topi::Conv2dNchwcKnobsFromConfig(task->space(), config));
  config.ic_block = 1;
  c.other_block_json =
      space::ConfigToJson(*topi::Conv2dNchwcKnobsFromConfig(task->space(), config));
  return c;
}

void AddRecord(const std::string& db, const std::string& workload, const std::string& config,
               double seconds) {
  auto store = tuner::RecordStore::Open(db);
  ASSERT_TRUE(store.ok()) << store.status();
  tuner::Record r;
  r.workload_key = workload;
  r.target = *tuner::CanonicalTarget("llvm");
  r.device_key = "box";
  r.config_json = config;
  r.repeat_seconds = {seconds};
  r.measured_by = "local";
  ASSERT_TRUE((*store)->Insert(r).ok());
}

TEST(ModelRecordsTest, ARecordInAnotherInputBlockMustWinByMoreThanTheTransform) {
  const ChainedConvs c = MakeChainedConvs();
  // Reading 40x8x8 floats in another block costs a transform of ~5 us (model_records.cc): a
  // record 1 us faster does not pay for it, one 100 us faster does.
  for (const auto& [other_s, want_ic] : {std::pair{0.000499, c.producer_block}, {0.0004, 1l}}) {
    const std::string db = ::testing::TempDir() + "/chained_" + std::to_string(getpid()) + ".db";
    fs::remove(db);
    AddRecord(db, c.second, c.same_block_json, 0.0005);
    AddRecord(db, c.second, c.other_block_json, other_s);
    ModelBuildOptions build;
    build.file = c.model;
    build.output = ::testing::TempDir() + "/chained_" + std::to_string(getpid()) + ".so";
    build.compile.db = db;
    build.compile.device_key = "box";
    std::ostringstream out, err;
    ASSERT_EQ(RunModelBuildCommand(build, out, err), 0) << err.str();
    EXPECT_THAT(out.str(),
                HasSubstr(absl::StrCat("conv2d_nchwc template, tuned (ic ", want_ic, ", oc ")))
        << "other record " << other_s << " s:\n"
        << out.str();
    fs::remove(build.output);
  }
}

TEST(ModelRecordsTest, ARecordThatDoesNotFitItsTemplateIsRefused) {
  if (!fs::is_directory(kCase)) GTEST_SKIP() << "libonnx-testdata missing";
  ModelBuildOptions build;
  build.file = (kCase / "model.onnx").string();
  build.output = ::testing::TempDir() + "/unfit_" + std::to_string(getpid()) + ".so";
  build.compile.db = NewDatabase(R"({"reg_o":3,"no_such_knob":1})");
  build.compile.device_key = "box";
  std::ostringstream out, err;
  EXPECT_EQ(RunModelBuildCommand(build, out, err), 1);
  EXPECT_THAT(err.str(), HasSubstr(std::string("records: the records of ") + kWorkload));
  EXPECT_THAT(err.str(), HasSubstr("no record fits its template"));
}

}  // namespace
}  // namespace tunefarm::tools
