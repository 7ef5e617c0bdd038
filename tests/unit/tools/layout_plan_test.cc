// The graph-level layout choice: a layout's cost is its convs' best records plus the transforms
// its blocks put at residual adds; the search starts at the rule's blocks and keeps what is
// cheaper, preferring layouts with fewer unmeasured kernels; a build with records takes the plan,
// says so, and computes what the rule's layout computes.
#include "driver/layout_plan.h"

#include <cmath>
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
#include "driver/model_compiler.h"
#include "tests/testing/dl_types.h"
#include "tests/testing/files.h"
#include "tests/unit/compiler/frontend/onnx/onnx_model_builder.h"
#include "tests/unit/compiler/graph/test_op.h"
#include "tools/commands/model_build_command.h"
#include "tuner/model_tasks.h"
#include "tuner/record_store.h"
#include "tuner/task.h"
#include "tuner/templates/template_registry.h"

namespace tunefarm::tools {
namespace {

using graph::testing::Op;
using ::testing::HasSubstr;
namespace fs = std::filesystem;

using fixtures::kF32;

// x [1,16,8,8] -> c1 -> relu r -> c2, and c2 + r: two 16-channel convs (blocks 8 or 16 on AVX2,
// the rule's 16) whose outputs meet at an add.
struct ResidualGraph {
  graph::Graph g;
  size_t c1 = 0, c2 = 0;
};

ResidualGraph MakeResidualGraph() {
  ResidualGraph r;
  graph::Graph& g = r.g;
  auto conv = [&](graph::ValueId x, size_t* index) {
    graph::ValueId w = g.AddConstant("", *runtime::NDArray::Empty({16, 16, 3, 3}, kF32));
    graph::ValueId y =
        Op(g, graph::OpKind::kConv2d, {x, w}, {{"pads", std::vector<int64_t>{1, 1, 1, 1}}});
    *index = g.nodes().size() - 1;
    return y;
  };
  graph::ValueId x = g.AddInput("x", {kF32, {1, 16, 8, 8}});
  graph::ValueId relu = Op(g, graph::OpKind::kRelu, {conv(x, &r.c1)});
  graph::ValueId c2 = conv(relu, &r.c2);
  g.AddOutput("y", Op(g, graph::OpKind::kAdd, {c2, relu}));
  return r;
}

std::string ConvKey(int64_t ic, int64_t oc) {
  return absl::StrCat("conv2d_nchwc:1,16,8,8,16,3,3,1,1,", ic, ",", oc, ":float32");
}

std::string TransformKey(int64_t from, int64_t to) {
  return absl::StrCat("layout_transform:1,16,8,8,", from, ",", to, ":float32");
}

// Seconds by workload key: the records a test gives the search.
driver::WorkloadSeconds Table(std::map<std::string, double> ms) {
  return [ms = std::move(ms)](const tuner::Workload& w) -> absl::StatusOr<std::optional<double>> {
    auto it = ms.find(w.Key());
    if (it == ms.end()) return std::nullopt;
    return it->second * 1e-3;
  };
}

// c1 reads x through the rule's to_nchwc (16), so its workloads are (16, oc); c2 reads c1's
// block. The two convs have one shape, so a block pair is one key for both.
std::map<std::string, double> FasterInEights() {
  return {{ConvKey(16, 16), 3}, {ConvKey(16, 8), 1},        {ConvKey(8, 8), 1},
          {ConvKey(8, 16), 2},  {TransformKey(8, 16), 0.5}, {TransformKey(16, 8), 0.5}};
}

TEST(LayoutPlanTest, ALayoutCostsItsConvsAndTheTransformsItsBlocksPutAtAdds) {
  const ResidualGraph r = MakeResidualGraph();
  const topi::CpuInfo cpu = topi::Avx2Cpu();
  const driver::WorkloadSeconds seconds = Table(FasterInEights());
  absl::StatusOr<tuner::LayoutCost> rule = driver::CostOfLayout(r.g, cpu, {}, seconds, false);
  ASSERT_TRUE(rule.ok()) << rule.status();
  EXPECT_EQ(rule->unmeasured, 0);
  EXPECT_NEAR(rule->seconds, 6e-3, 1e-12);
  // c2 alone in eights: c1 (16, 16) 3 ms, c2 (16, 8) 1 ms, and r moved from 16 to 8 for the add.
  absl::StatusOr<tuner::LayoutCost> c2_only =
      driver::CostOfLayout(r.g, cpu, {{r.c2, 8}}, seconds, false);
  ASSERT_TRUE(c2_only.ok()) << c2_only.status();
  EXPECT_EQ(c2_only->unmeasured, 0);
  EXPECT_NEAR(c2_only->seconds, (3 + 1 + 0.5) * 1e-3, 1e-12);
  // c1 alone in eights: c1 (16, 8) 1 ms, c2 (8, 16) 2 ms, and r moved from 8 to 16 for the add.
  absl::StatusOr<tuner::LayoutCost> c1_only =
      driver::CostOfLayout(r.g, cpu, {{r.c1, 8}}, seconds, false);
  ASSERT_TRUE(c1_only.ok()) << c1_only.status();
  EXPECT_EQ(c1_only->unmeasured, 0);
  EXPECT_NEAR(c1_only->seconds, (1 + 2 + 0.5) * 1e-3, 1e-12);
}

TEST(LayoutPlanTest, TheSearchMovesAStageTogetherWhereTheAddWantsBothSidesAlike) {
  const ResidualGraph r = MakeResidualGraph();
  absl::StatusOr<driver::LayoutPlan> plan =
      driver::PlanConvBlocks(r.g, topi::Avx2Cpu(), Table(FasterInEights()), false);
  ASSERT_TRUE(plan.ok()) << plan.status();
  EXPECT_EQ(plan->plannable, 2);
  // Both in eights: 1 + 1 ms and no transform, against the rule's 6 ms.
  EXPECT_EQ(plan->plan, (graph::ConvBlockPlan{{r.c1, 8}, {r.c2, 8}}));
  EXPECT_NEAR(plan->chosen.seconds, 2e-3, 1e-12);
  EXPECT_NEAR(plan->rule.seconds, 6e-3, 1e-12);
  EXPECT_GT(plan->evaluated, 2);
  EXPECT_EQ(driver::DescribeLayout(*plan),
            "layout: 2 of 2 convs in blocks other than the rule's; kernels and transforms 2.000 "
            "ms (rule: 6.000 ms), 0 without a record (rule: 0)");
}

TEST(LayoutPlanTest, AMeasuredLayoutIsNeverTradedForAFasterLookingUnmeasuredOne) {
  const ResidualGraph r = MakeResidualGraph();
  std::map<std::string, double> ms = FasterInEights();
  ms.erase(ConvKey(8, 8));  // c2 in eights after c1 in eights: never measured
  absl::StatusOr<driver::LayoutPlan> plan =
      driver::PlanConvBlocks(r.g, topi::Avx2Cpu(), Table(ms), false);
  ASSERT_TRUE(plan.ok()) << plan.status();
  // Only c1 moves: 1 + 2 + 0.5 (the add's transform) against the rule's 6.
  EXPECT_EQ(plan->plan, (graph::ConvBlockPlan{{r.c1, 8}}));
  EXPECT_EQ(plan->chosen.unmeasured, 0);
  EXPECT_NEAR(plan->chosen.seconds, 3.5e-3, 1e-12);

  // With no records at all every layout is as unknown as the rule's: the rule stays.
  absl::StatusOr<driver::LayoutPlan> none =
      driver::PlanConvBlocks(r.g, topi::Avx2Cpu(), Table({}), false);
  ASSERT_TRUE(none.ok()) << none.status();
  EXPECT_TRUE(none->plan.empty());
  EXPECT_EQ(none->rule.unmeasured, 2);
}

// The scheduler's layout choice (tuner::ExtractLayoutChoice, no graph) costs every layout as the
// build does over the real rewrite, transforms and Winograd included, and picks the same plan.
TEST(LayoutPlanTest, TheSchedulersLayoutChoiceCostsEveryLayoutAsTheBuildDoes) {
  const ResidualGraph r = MakeResidualGraph();
  const topi::CpuInfo cpu = topi::Avx2Cpu();
  absl::StatusOr<graph::Graph> laid = graph::RewriteLayoutNchwc(r.g, cpu);
  ASSERT_TRUE(laid.ok()) << laid.status();
  const graph::FusionPlan fusion = graph::PlanFusion(*laid);
  const std::vector<tuner::ModelTask> tasks =
      tuner::ExtractModelTasks(*laid, fusion, tuner::TaskAlgorithms::kAll, cpu);
  const tuner::LayoutChoice choice = tuner::ExtractLayoutChoice(*laid, fusion, tasks, cpu);
  ASSERT_TRUE(tuner::ValidateLayoutChoice(choice, static_cast<int>(tasks.size())).ok());
  ASSERT_EQ(choice.vars.size(), 2u);  // c1, then c2
  EXPECT_EQ(choice.vars[0].rule, 16);
  EXPECT_EQ(choice.vars[0].candidates, (std::vector<int64_t>{8, 16}));
  EXPECT_EQ(choice.site_required, (std::vector<bool>{true, true, false}));  // c1, c2, the add

  // Winograd slower than direct in one pair, faster in another.
  std::map<std::string, double> ms = FasterInEights();
  ms[absl::StrCat("conv2d_winograd_nchwc:1,16,8,8,16,3,3,1,1,16,16:float32")] = 2.5;
  ms[absl::StrCat("conv2d_winograd_nchwc:1,16,8,8,16,3,3,1,1,8,16:float32")] = 4;
  const driver::WorkloadSeconds seconds = Table(ms);
  std::vector<double> bests;
  for (const tuner::ModelTask& t : tasks) {
    auto it = ms.find(t.workload.Key());
    bests.push_back(it == ms.end() ? 0 : it->second * 1e-3);
  }
  for (int64_t b1 : {8, 16}) {
    for (int64_t b2 : {8, 16}) {
      graph::ConvBlockPlan plan{{r.c1, b1}, {r.c2, b2}};
      absl::StatusOr<tuner::LayoutCost> built = driver::CostOfLayout(r.g, cpu, plan, seconds, true);
      ASSERT_TRUE(built.ok()) << built.status();
      const tuner::LayoutCost abstract = tuner::CostOfAssignment(choice, {b1, b2}, bests);
      EXPECT_EQ(abstract.unmeasured, built->unmeasured) << b1 << "," << b2;
      EXPECT_NEAR(abstract.seconds, built->seconds, 1e-12) << b1 << "," << b2;
    }
  }
  absl::StatusOr<driver::LayoutPlan> plan = driver::PlanConvBlocks(r.g, cpu, seconds, true);
  ASSERT_TRUE(plan.ok()) << plan.status();
  const tuner::BlockAssignment chosen = tuner::ChooseBlocks(choice, bests);
  EXPECT_EQ(chosen.blocks, (std::vector<int64_t>{8, 8}));
  EXPECT_NEAR(chosen.cost.seconds, plan->chosen.seconds, 1e-12);
}

TEST(LayoutPlanTest, ARecordStoreErrorEndsTheSearchWithIt) {
  const ResidualGraph r = MakeResidualGraph();
  const driver::WorkloadSeconds broken =
      [](const tuner::Workload&) -> absl::StatusOr<std::optional<double>> {
    return absl::DataLossError("the records of x in y: database disk image is malformed");
  };
  absl::StatusOr<driver::LayoutPlan> plan =
      driver::PlanConvBlocks(r.g, topi::Avx2Cpu(), broken, false);
  ASSERT_FALSE(plan.ok());
  EXPECT_EQ(plan.status().code(), absl::StatusCode::kDataLoss);
}

// image [1,3,8,8] -> c1 (40 filters) -> c2 (40), and c2 + c1.
std::string ResidualConvsModel() {
  frontend::onnx::testing::OnnxModelBuilder b(13);
  b.Input("image", {1, 3, 8, 8});
  b.FloatInit("w1", {40, 3, 3, 3});
  b.FloatInit("w2", {40, 40, 3, 3});
  using B = frontend::onnx::testing::OnnxModelBuilder;
  B::Ints(b.Node("Conv", {"image", "w1"}, {"c1"}), "pads", {1, 1, 1, 1});
  B::Ints(b.Node("Conv", {"c1", "w2"}, {"c2"}), "pads", {1, 1, 1, 1});
  b.Node("Add", {"c2", "c1"}, {"sum"});
  b.Output("sum");
  return fixtures::WriteTempFile("layout_residual.onnx", b.Bytes());
}

// A record of `key`'s default config taking `ms`.
void AddDefaultRecord(tuner::RecordStore& store, const std::string& key, double ms) {
  absl::StatusOr<std::unique_ptr<tuner::Task>> task =
      tuner::CreateTask(*tuner::ParseWorkloadKey(key), target::Target::Host());
  ASSERT_TRUE(task.ok()) << task.status();
  absl::StatusOr<space::Config> config = (*task)->DefaultConfig();
  ASSERT_TRUE(config.ok()) << config.status();
  tuner::Record rec;
  rec.workload_key = key;
  rec.target = target::Target::Host().str();
  rec.device_key = "box";
  rec.config_json = space::ConfigToJson(*config);
  rec.repeat_seconds = {ms * 1e-3};
  rec.measured_by = "local";
  ASSERT_TRUE(store.Insert(rec).ok());
}

// The model's output for a fixed input, built with `options`.
std::vector<float> RunOnce(const std::string& model, const driver::ModelCompileOptions& options) {
  absl::StatusOr<std::unique_ptr<driver::ModelExecutor>> exec =
      driver::LoadModelForRun(model, options, target::Target::Host());
  EXPECT_TRUE(exec.ok()) << exec.status();
  if (!exec.ok()) return {};
  std::vector<float> image(3 * 8 * 8);
  for (size_t i = 0; i < image.size(); ++i) image[i] = std::sin(0.37f * i);
  EXPECT_TRUE((*exec)->SetInput(0, image.data(), image.size() * sizeof(float)).ok());
  EXPECT_TRUE((*exec)->Run().ok());
  absl::StatusOr<const DLTensor*> out = (*exec)->Output(0);
  EXPECT_TRUE(out.ok()) << out.status();
  if (!out.ok()) return {};
  const float* data = static_cast<const float*>((*out)->data);
  return std::vector<float>(data, data + 40 * 8 * 8);
}

TEST(LayoutPlanTest, ABuildWithRecordsTakesThePlanAndComputesWhatTheRuleDoes) {
  const std::string model = ResidualConvsModel();
  const int64_t l = target::CpuInfoOf(target::Target::Host()).Lanes(4);
  const std::string db = ::testing::TempDir() + "/layout_plan_" + std::to_string(getpid()) + ".db";
  fs::remove(db);
  {
    absl::StatusOr<std::unique_ptr<tuner::RecordStore>> store = tuner::RecordStore::Open(db);
    ASSERT_TRUE(store.ok()) << store.status();
    auto c1 = [](int64_t oc) {
      return absl::StrCat("conv2d_nchwc:1,3,8,8,40,3,3,1,1,3,", oc, ":float32");
    };
    auto c2 = [](int64_t ic, int64_t oc) {
      return absl::StrCat("conv2d_nchwc:1,40,8,8,40,3,3,1,1,", ic, ",", oc, ":float32");
    };
    // The rule (two vectors each) costs 2 ms; c1 in one vector and c2 in two, 0.3 ms and a
    // transform of c1's output for the add.
    AddDefaultRecord(**store, c1(2 * l), 1.0);
    AddDefaultRecord(**store, c1(l), 0.2);
    AddDefaultRecord(**store, c2(2 * l, 2 * l), 1.0);
    AddDefaultRecord(**store, c2(l, l), 1.0);
    AddDefaultRecord(**store, c2(l, 2 * l), 0.1);
    AddDefaultRecord(**store, c2(2 * l, l), 1.0);
    AddDefaultRecord(**store, absl::StrCat("layout_transform:1,40,8,8,", l, ",", 2 * l, ":float32"),
                     0.05);
  }
  ModelBuildOptions build;
  build.file = model;
  build.output = ::testing::TempDir() + "/layout_plan_" + std::to_string(getpid()) + ".so";
  build.compile.db = db;
  build.compile.device_key = "box";
  std::ostringstream out, err;
  ASSERT_EQ(RunModelBuildCommand(build, out, err), 0) << err.str();
  EXPECT_THAT(out.str(), HasSubstr("layout: 1 of 2 convs in blocks other than the rule's; kernels "
                                   "and transforms 0.350 ms (rule: 2.000 ms), 0 without a record"))
      << out.str();
  EXPECT_THAT(out.str(), HasSubstr(absl::StrCat("tuned conv2d_nchwc:1,40,8,8,40,3,3,1,1,", l, ",",
                                                2 * l, ":float32: 0.100 ms (1 groups)")));
  fs::remove(build.output);

  const std::vector<float> planned = RunOnce(model, build.compile);
  const std::vector<float> rule = RunOnce(model, driver::ModelCompileOptions());
  ASSERT_EQ(planned.size(), rule.size());
  ASSERT_FALSE(rule.empty());
  for (size_t i = 0; i < rule.size(); ++i) {
    ASSERT_NEAR(planned[i], rule[i], 1e-4f * (1 + std::fabs(rule[i]))) << "element " << i;
  }
  fs::remove(db);
}

}  // namespace
}  // namespace tunefarm::tools
