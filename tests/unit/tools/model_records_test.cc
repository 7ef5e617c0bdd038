// `tunefarm model build --db DB --device-key K`: a conv whose workload has a record in the
// database is built with that record's config (and says so): the NCHW template's for a conv that
// stays NCHW (its weight is an input), the blocked template's for one the layout rewrite blocks,
// whose task fixes the blocks of its layout (a record of the conv tuned with free blocks is
// another task's); a workload without one keeps its default; records from an incompatible space
// are refused naming the workload. A 3x3 stride-1 blocked conv is two tasks, direct and Winograd,
// and the build runs the one whose best record is faster. A QDQ model's conv is a task of the int8
// template, with the blocks of its layout, and built with its record.
#include "driver/model_records.h"

#include <algorithm>
#include <filesystem>
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <map>
#include <sstream>
#include <unistd.h>

#include "absl/strings/str_cat.h"
#include "compiler/graph/fusion.h"
#include "compiler/space/config_json.h"
#include "compiler/target/target_cpu.h"
#include "compiler/topi/conv2d_int8_knobs.h"
#include "compiler/topi/conv2d_nchwc_knobs.h"
#include "compiler/topi/conv2d_winograd_knobs.h"
#include "compiler/topi/dense_int8_knobs.h"
#include "compiler/topi/gemm_knobs.h"
#include "driver/model_compiler.h"
#include "tests/testing/files.h"
#include "tests/unit/compiler/frontend/onnx/onnx_model_builder.h"
#include "tests/unit/tools/model_records_fixture.h"
#include "tools/commands/model_build_command.h"
#include "tuner/model_tasks.h"
#include "tuner/record_store.h"
#include "tuner/templates/template_registry.h"

namespace tunefarm::tools {
namespace {

using testing::AddRecord;
using testing::ChainedConvsModel;
using ::testing::HasSubstr;
using testing::TaskKeys;
using testing::TunedConfigJson;
using testing::WinogradConfigJson;
using testing::WinogradKeyOf;
using B = frontend::onnx::testing::OnnxModelBuilder;
namespace fs = std::filesystem;

// ONNX's test case: x [1,1,7,5], W [1,1,3,3], strides 2, pads 1.
const fs::path kCase = "/usr/share/libonnx-testdata/data/node/test_conv_with_strides_padding";
constexpr const char* kWorkload = "conv2d:1,1,7,5,1,3,3,2,1:float32";

std::string NewDatabase(const std::string& config_json, const std::string& workload = kWorkload) {
  const std::string path =
      ::testing::TempDir() + "/model_records_" + std::to_string(getpid()) + ".db";
  fs::remove(path);
  AddRecord(path, workload, config_json, {0.0005, 0.0004, 0.0006});
  return path;
}

TEST(ModelRecordsTest, ATunedWorkloadIsBuiltWithItsBestRecord) {
  if (!fs::is_directory(kCase)) GTEST_SKIP() << "libonnx-testdata missing";
  ModelBuildOptions build;
  build.file = (kCase / "model.onnx").string();
  build.output = ::testing::TempDir() + "/tuned_" + std::to_string(getpid()) + ".so";
  build.compile.db = NewDatabase(TunedConfigJson(kWorkload));
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

TEST(ModelRecordsTest, AModelsConvTasksFixTheBlocksOfItsLayout) {
  // The first conv: 3 input channels in one block, 40 outputs in blocks of two vectors; the
  // second reads its input in the block the first writes.
  const topi::CpuInfo cpu = target::CpuInfoOf(target::Target::Host());
  const int64_t oc = 2 * cpu.Lanes(4);
  EXPECT_THAT(TaskKeys(ChainedConvsModel()),
              ::testing::ElementsAre(
                  absl::StrCat("conv2d_nchwc:1,3,8,8,40,3,3,1,1,3,", oc, ":float32"),
                  absl::StrCat("conv2d_nchwc:1,40,8,8,40,3,3,1,1,", oc, ",", oc, ":float32")));
}

TEST(ModelRecordsTest, ABlockedConvIsBuiltWithTheRecordOfItsLayoutsTask) {
  const std::string model = ChainedConvsModel();
  const std::vector<std::string> keys = TaskKeys(model);
  ASSERT_EQ(keys.size(), 2u);
  // The second conv's task: its default config with another register tile, as a tuner finds.
  absl::StatusOr<std::unique_ptr<tuner::Task>> task =
      tuner::CreateTask(*tuner::ParseWorkloadKey(keys[1]), target::Target::Host());
  ASSERT_TRUE(task.ok()) << task.status();
  const topi::CpuInfo cpu = target::CpuInfoOf(target::Target::Host());
  absl::StatusOr<topi::Conv2dNchwcScheduleConfig> c =
      topi::Conv2dNchwcConfigFromKnobs(*(*task)->DefaultConfig(), cpu);
  ASSERT_TRUE(c.ok()) << c.status();
  c->reg_w = c->reg_w == 2 ? 4 : 2;
  absl::StatusOr<space::Config> tuned = topi::Conv2dNchwcKnobsFromConfig((*task)->space(), *c);
  ASSERT_TRUE(tuned.ok()) << tuned.status();
  // The same conv tuned alone, its blocks free (`tunefarm tune conv2d_nchwc:...`): a record of
  // another task, which the model's build does not take.
  std::string free_key = keys[1];
  free_key.erase(free_key.rfind(':'));
  free_key.erase(free_key.rfind(','));
  free_key.erase(free_key.rfind(','));

  const std::string db = ::testing::TempDir() + "/chained_" + std::to_string(getpid()) + ".db";
  fs::remove(db);
  AddRecord(db, keys[1], space::ConfigToJson(*tuned), {0.0005});
  AddRecord(db, free_key, space::ConfigToJson(*tuned), {0.0001});
  ModelBuildOptions build;
  build.file = model;
  build.output = ::testing::TempDir() + "/chained_" + std::to_string(getpid()) + ".so";
  build.compile.db = db;
  build.compile.device_key = "box";
  std::ostringstream out, err;
  ASSERT_EQ(RunModelBuildCommand(build, out, err), 0) << err.str();
  EXPECT_THAT(out.str(), HasSubstr("1 tasks tuned, 1 on default configs"));
  EXPECT_THAT(out.str(), HasSubstr(absl::StrCat("tuned ", keys[1], ": 0.500 ms (1 groups)")));
  EXPECT_THAT(out.str(),
              HasSubstr(absl::StrCat("conv2d_nchwc template, tuned (", c->ToString(), ")")))
      << out.str();
  fs::remove(build.output);
  fs::remove(db);
}

// A scalar zero point of an 8-bit `type`.
void ZeroPoint(B& b, const std::string& name, ::onnx::TensorProto::DataType type, int v) {
  ::onnx::TensorProto* t = b.FloatInit(name, {}, 0);
  t->clear_float_data();
  t->set_data_type(type);
  t->add_int32_data(v);
}

// image -> QuantizeLinear/DequantizeLinear (uint8) -> Conv with a QuantizeLinear/DequantizeLinear
// int8 weight of 32 filters: what the quantized_conv pass makes conv2d_int8.
std::string QuantizedConvModel() {
  B b(13);
  b.Input("image", {1, 16, 8, 8});
  b.FloatInit("w", {32, 16, 3, 3}, 0.25f);
  b.FloatInit("s", {}, 0.05f);
  b.FloatInit("sw", {}, 0.01f);
  ZeroPoint(b, "z", ::onnx::TensorProto::UINT8, 128);
  ZeroPoint(b, "zw", ::onnx::TensorProto::INT8, 0);
  b.Node("QuantizeLinear", {"image", "s", "z"}, {"q"});
  b.Node("DequantizeLinear", {"q", "s", "z"}, {"x"});
  b.Node("QuantizeLinear", {"w", "sw", "zw"}, {"wq"});
  b.Node("DequantizeLinear", {"wq", "sw", "zw"}, {"wx"});
  B::Ints(b.Node("Conv", {"x", "wx"}, {"y"}), "pads", {1, 1, 1, 1});
  b.Output("y");
  return fixtures::WriteTempFile("quantized_conv.onnx", b.Bytes());
}

// `model build --db` of `model` with one record of `key` (config `config_json`): its output.
std::string BuildWithOneRecord(const std::string& model, const std::string& key,
                               const std::string& config_json, const std::string& tag) {
  const std::string db = ::testing::TempDir() + "/" + tag + "_" + std::to_string(getpid()) + ".db";
  fs::remove(db);
  AddRecord(db, key, config_json, {0.0002});
  ModelBuildOptions build;
  build.file = model;
  build.output = ::testing::TempDir() + "/" + tag + "_" + std::to_string(getpid()) + ".so";
  build.compile.db = db;
  build.compile.device_key = "box";
  std::ostringstream out, err;
  EXPECT_EQ(RunModelBuildCommand(build, out, err), 0) << err.str();
  fs::remove(build.output);
  fs::remove(db);
  return out.str();
}

TEST(ModelRecordsTest, AQuantizedConvIsAnInt8TaskWithItsLayoutsBlocksAndBuiltWithItsRecord) {
  const std::string model = QuantizedConvModel();
  const std::vector<std::string> keys = TaskKeys(model);
  const topi::CpuInfo cpu = target::CpuInfoOf(target::Target::Host());
  const int64_t lanes = cpu.Lanes(4);
  ASSERT_THAT(keys, ::testing::ElementsAre(absl::StrCat("conv2d_int8:1,16,8,8,32,3,3,1,1,",
                                                        std::min<int64_t>(lanes, 16), ",", lanes,
                                                        ":int8")));
  absl::StatusOr<std::unique_ptr<tuner::Task>> task =
      tuner::CreateTask(*tuner::ParseWorkloadKey(keys[0]), target::Target::Host());
  ASSERT_TRUE(task.ok()) << task.status();
  absl::StatusOr<topi::Conv2dInt8Config> c =
      topi::Conv2dInt8ConfigFromKnobs(*(*task)->DefaultConfig());
  ASSERT_TRUE(c.ok()) << c.status();
  c->reg_w = c->reg_w == 4 ? 2 : 4;
  absl::StatusOr<space::Config> tuned = topi::Conv2dInt8KnobsFromConfig((*task)->space(), *c);
  ASSERT_TRUE(tuned.ok()) << tuned.status();
  const std::string out = BuildWithOneRecord(model, keys[0], space::ConfigToJson(*tuned), "int8");
  EXPECT_THAT(out, HasSubstr("1 tasks tuned, 0 on default configs"));
  EXPECT_THAT(out, HasSubstr(absl::StrCat("conv2d_int8 template, tuned (", c->ToString(), ")")))
      << out;
}

// x [4, 64] quantized to uint8 -> Gemm with a quantized int8 weight [32, 64] (transB), as
// PyTorch exports a QDQ Linear layer: what quantized_dense makes dense_int8.
std::string QuantizedLinearModel() {
  B b(13);
  b.Input("x", {4, 64});
  b.FloatInit("w", {32, 64}, 0.25f);
  b.FloatInit("s", {}, 0.05f);
  b.FloatInit("sw", {}, 0.01f);
  ZeroPoint(b, "z", ::onnx::TensorProto::UINT8, 128);
  ZeroPoint(b, "zw", ::onnx::TensorProto::INT8, 0);
  b.Node("QuantizeLinear", {"x", "s", "z"}, {"q"});
  b.Node("DequantizeLinear", {"q", "s", "z"}, {"xd"});
  b.Node("QuantizeLinear", {"w", "sw", "zw"}, {"wq"});
  b.Node("DequantizeLinear", {"wq", "sw", "zw"}, {"wd"});
  B::Int(b.Node("Gemm", {"xd", "wd"}, {"y"}), "transB", 1);
  b.Output("y");
  return fixtures::WriteTempFile("quantized_linear.onnx", b.Bytes());
}

TEST(ModelRecordsTest, AQuantizedLinearLayerIsAnInt8DenseTaskAndBuiltWithItsRecord) {
  const std::string model = QuantizedLinearModel();
  const std::vector<std::string> keys = TaskKeys(model);
  ASSERT_THAT(keys, ::testing::ElementsAre("dense_int8:4,32,64:int8"));
  absl::StatusOr<std::unique_ptr<tuner::Task>> task =
      tuner::CreateTask(*tuner::ParseWorkloadKey(keys[0]), target::Target::Host());
  ASSERT_TRUE(task.ok()) << task.status();
  const topi::CpuInfo cpu = target::CpuInfoOf(target::Target::Host());
  absl::StatusOr<topi::DenseInt8Config> c =
      topi::DenseInt8ConfigFromKnobs(*(*task)->DefaultConfig(), cpu);
  ASSERT_TRUE(c.ok()) << c.status();
  c->reg_m = c->reg_m == 2 ? 1 : 2;
  absl::StatusOr<space::Config> tuned = topi::DenseInt8KnobsFromConfig((*task)->space(), *c);
  ASSERT_TRUE(tuned.ok()) << tuned.status();
  const std::string out = BuildWithOneRecord(model, keys[0], space::ConfigToJson(*tuned), "dense8");
  EXPECT_THAT(out, HasSubstr("1 tasks tuned, 0 on default configs"));
  EXPECT_THAT(out, HasSubstr(absl::StrCat("dense_int8 template, tuned (", c->ToString(), ")")))
      << out;
}

// x [8, 64] -> Gemm with a constant float weight [64, 64] (transB): a Linear layer over eight
// tokens, whose weight pack_weights packs at build time.
std::string LinearLayerModel() {
  B b(13);
  b.Input("x", {8, 64});
  b.FloatInit("w", {64, 64}, 0.25f);
  B::Int(b.Node("Gemm", {"x", "w"}, {"y"}), "transB", 1);
  b.Output("y");
  return fixtures::WriteTempFile("linear_layer.onnx", b.Bytes());
}

TEST(ModelRecordsTest, ALinearLayerIsADensePackedTaskAndBuiltWithItsRecord) {
  const std::string model = LinearLayerModel();
  const std::vector<std::string> keys = TaskKeys(model);
  ASSERT_EQ(keys.size(), 1u);
  EXPECT_THAT(keys[0], ::testing::StartsWith("dense_packed:8,64,64,"));
  absl::StatusOr<std::unique_ptr<tuner::Task>> task =
      tuner::CreateTask(*tuner::ParseWorkloadKey(keys[0]), target::Target::Host());
  ASSERT_TRUE(task.ok()) << task.status();
  const topi::CpuInfo cpu = target::CpuInfoOf(target::Target::Host());
  absl::StatusOr<topi::GemmScheduleConfig> c =
      topi::GemmConfigFromKnobs(*(*task)->DefaultConfig(), cpu);
  ASSERT_TRUE(c.ok()) << c.status();
  c->unroll_k = c->unroll_k == 4 ? 1 : 4;
  absl::StatusOr<space::Config> tuned = topi::GemmKnobsFromConfig((*task)->space(), *c);
  ASSERT_TRUE(tuned.ok()) << tuned.status();
  const std::string out = BuildWithOneRecord(model, keys[0], space::ConfigToJson(*tuned), "dense");
  EXPECT_THAT(out, HasSubstr("1 tasks tuned, 0 on default configs"));
  EXPECT_THAT(out, HasSubstr(absl::StrCat("gemm template, tuned (", c->ToString(), ")"))) << out;
}

TEST(ModelRecordsTest, AThreeByThreeStrideOneConvIsADirectAndAWinogradTaskOfOneLayer) {
  absl::StatusOr<driver::OptimizedModel> optimized = driver::OptimizeModel(
      ChainedConvsModel(), driver::ModelCompileOptions(), target::Target::Host());
  ASSERT_TRUE(optimized.ok()) << optimized.status();
  const graph::FusionPlan plan = graph::PlanFusion(optimized->graph);
  const std::vector<tuner::ModelTask> built = tuner::ExtractModelTasks(optimized->graph, plan);
  const std::vector<tuner::ModelTask> all =
      tuner::ExtractModelTasks(optimized->graph, plan, tuner::TaskAlgorithms::kAll);
  ASSERT_EQ(built.size(), 2u);
  ASSERT_EQ(all.size(), 4u);
  for (int layer = 0; layer < 2; ++layer) {
    const tuner::ModelTask& direct = all[2 * layer];
    const tuner::ModelTask& winograd = all[2 * layer + 1];
    EXPECT_EQ(direct.workload, built[layer].workload) << "the rule keeps both convs direct";
    EXPECT_EQ(winograd.workload.template_name, "conv2d_winograd_nchwc");
    EXPECT_EQ(winograd.workload.args, direct.workload.args);
    EXPECT_EQ(direct.layer, layer);
    EXPECT_EQ(winograd.layer, layer);
    EXPECT_EQ(winograd.groups, direct.groups);
  }
}

TEST(ModelRecordsTest, WithLayoutsEveryBlockPairAPlanCouldGiveIsATaskOfItsLayer) {
  absl::StatusOr<driver::OptimizedModel> optimized = driver::OptimizeModel(
      ChainedConvsModel(/*residual=*/true), driver::ModelCompileOptions(), target::Target::Host());
  ASSERT_TRUE(optimized.ok()) << optimized.status();
  const graph::FusionPlan plan = graph::PlanFusion(optimized->graph);
  const topi::CpuInfo cpu = target::CpuInfoOf(target::Target::Host());
  const int64_t l = cpu.Lanes(4);
  const std::vector<tuner::ModelTask> tasks =
      tuner::ExtractModelTasks(optimized->graph, plan, tuner::TaskAlgorithms::kAll, cpu);
  std::map<std::string, std::pair<int, size_t>> found;  // key -> (layer, groups)
  for (const tuner::ModelTask& t : tasks) {
    found[t.workload.Key()] = {t.layer, t.groups.size()};
  }
  auto key = [](const char* op, const std::string& args) {
    return absl::StrCat(op, ":", args, ":float32");
  };
  std::map<std::string, std::pair<int, size_t>> want;
  // conv1 reads the image: its input block is the rule's (3); its output block is a choice of one
  // or two vectors; both algorithms.
  for (const char* op : {"conv2d_nchwc", "conv2d_winograd_nchwc"}) {
    for (int64_t oc : {l, 2 * l}) {
      want[key(op, absl::StrCat("1,3,8,8,40,3,3,1,1,3,", oc))] = {0, 1};
      // conv2 reads conv1's output: both blocks are choices.
      for (int64_t ic : {l, 2 * l}) {
        want[key(op, absl::StrCat("1,40,8,8,40,3,3,1,1,", ic, ",", oc))] = {1, 1};
      }
    }
  }
  // The add's two sides in different blocks: a transform each way, timed only (no groups).
  want[key("layout_transform", absl::StrCat("1,40,8,8,", l, ",", 2 * l))] = {2, 0};
  want[key("layout_transform", absl::StrCat("1,40,8,8,", 2 * l, ",", l))] = {3, 0};
  EXPECT_EQ(found, want);
  // The layout's own workloads come first in their layers, as without layouts.
  const std::vector<tuner::ModelTask> built =
      tuner::ExtractModelTasks(optimized->graph, plan, tuner::TaskAlgorithms::kBuilt);
  ASSERT_EQ(built.size(), 2u);
  EXPECT_EQ(tasks[0].workload, built[0].workload);
  auto second_layer = std::find_if(tasks.begin(), tasks.end(),
                                   [](const tuner::ModelTask& t) { return t.layer == 1; });
  ASSERT_NE(second_layer, tasks.end());
  EXPECT_EQ(second_layer->workload, built[1].workload);
}

TEST(ModelRecordsTest, TheBuildRunsTheAlgorithmWhoseBestRecordIsFaster) {
  const std::string model = ChainedConvsModel();
  const std::vector<std::string> keys = TaskKeys(model);
  ASSERT_EQ(keys.size(), 2u);
  const std::string winograd_key = WinogradKeyOf(keys[1]);
  const std::string db = ::testing::TempDir() + "/algorithms_" + std::to_string(getpid()) + ".db";
  auto build = [&](const std::string& name) {
    ModelBuildOptions b;
    b.file = model;
    b.output = ::testing::TempDir() + "/" + name + std::to_string(getpid()) + ".so";
    b.compile.db = db;
    b.compile.device_key = "box";
    std::ostringstream out, err;
    EXPECT_EQ(RunModelBuildCommand(b, out, err), 0) << err.str();
    fs::remove(b.output);
    return out.str();
  };
  // The second conv (8x8 rows: the rule keeps it direct) measured faster as F(2x2, 3x3).
  fs::remove(db);
  AddRecord(db, keys[1], TunedConfigJson(keys[1]), {0.0005});
  AddRecord(db, winograd_key, WinogradConfigJson(keys[1], 4), {0.0003});
  AddRecord(db, winograd_key, WinogradConfigJson(keys[1], 2), {0.0002});
  const std::string winograd = build("winograd");
  EXPECT_THAT(winograd, HasSubstr(absl::StrCat("tuned ", winograd_key, ": 0.200 ms (1 groups)")));
  EXPECT_THAT(winograd, HasSubstr("conv2d_winograd_nchwc template F(2x2, 3x3), tuned ("));
  EXPECT_THAT(winograd, HasSubstr("conv2d_nchwc template, default (")) << "the first conv";
  // The direct conv measured faster: the build keeps it direct.
  AddRecord(db, keys[1], TunedConfigJson(keys[1]), {0.0001});
  const std::string direct = build("direct");
  EXPECT_THAT(direct, HasSubstr(absl::StrCat("tuned ", keys[1], ": 0.100 ms (1 groups)")));
  EXPECT_THAT(direct, ::testing::Not(HasSubstr("conv2d_winograd_nchwc")));
  fs::remove(db);
}

TEST(ModelRecordsTest, TheTimingClosestToAModelIsUsedAndNeverRacedAgainstAnother) {
  const std::string model = ChainedConvsModel();
  const std::vector<std::string> keys = TaskKeys(model);
  ASSERT_EQ(keys.size(), 2u);
  const std::string winograd_key = WinogradKeyOf(keys[1]);
  const std::string db = ::testing::TempDir() + "/timings.db";
  auto build = [&] {
    ModelBuildOptions b;
    b.file = model;
    b.output = ::testing::TempDir() + "/timings.so";
    b.compile.db = db;
    b.compile.device_key = "box";
    std::ostringstream out, err;
    EXPECT_EQ(RunModelBuildCommand(b, out, err), 0) << err.str();
    return out.str();
  };
  constexpr tuner::CacheFlush kAll = tuner::CacheFlush::kAll;
  constexpr tuner::CacheFlush kWeights = tuner::CacheFlush::kWeights;
  // A kernel tuning's warm record is the fastest, but the model's tuning timed both algorithms
  // with every cache flushed: those decide, and Winograd is faster so.
  fs::remove(db);
  AddRecord(db, keys[1], TunedConfigJson(keys[1]), {0.0001});
  AddRecord(db, keys[1], TunedConfigJson(keys[1]), {0.0006}, kAll);
  AddRecord(db, winograd_key, WinogradConfigJson(keys[1], 2), {0.0004}, kAll);
  const std::string cold = build();
  EXPECT_THAT(cold, HasSubstr(absl::StrCat("tuned ", winograd_key, ": 0.400 ms (1 groups)")));

  // Timed with the weights evicted as well: that timing (a layer's inside a model) decides over
  // the other two, and there the direct conv is faster.
  AddRecord(db, keys[1], TunedConfigJson(keys[1]), {0.0003}, kWeights);
  AddRecord(db, winograd_key, WinogradConfigJson(keys[1], 2), {0.0005}, kWeights);
  const std::string weights = build();
  EXPECT_THAT(weights, HasSubstr(absl::StrCat("tuned ", keys[1], ": 0.300 ms (1 groups)")));
  EXPECT_THAT(weights, ::testing::Not(HasSubstr("conv2d_winograd_nchwc")));

  // Winograd timed warm only, the direct conv cold: the times do not compare, and the rule
  // (direct, for this conv's 8x8 rows) runs the direct conv with its cold record.
  fs::remove(db);
  AddRecord(db, keys[1], TunedConfigJson(keys[1]), {0.0006}, kAll);
  AddRecord(db, winograd_key, WinogradConfigJson(keys[1], 2), {0.00005});
  const std::string mixed = build();
  EXPECT_THAT(mixed, HasSubstr(absl::StrCat("tuned ", keys[1], ": 0.600 ms (1 groups)")));
  EXPECT_THAT(mixed, ::testing::Not(HasSubstr("conv2d_winograd_nchwc")));
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
