// `tunefarm model tune` on a small CNN: identical layers are one task weighted by their count,
// every trial is recorded under the device key, the budget is shared, and `model build --db`
// then finds a record for every task.
#include "tools/commands/model_tune_command.h"

#include <filesystem>
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <sstream>

#include "absl/strings/str_cat.h"
#include "compiler/target/target_cpu.h"
#include "tests/testing/files.h"
#include "tests/unit/compiler/frontend/onnx/onnx_model_builder.h"
#include "tools/commands/model_build_command.h"
#include "tuner/record_store.h"

namespace tunefarm::tools {
namespace {

using ::testing::HasSubstr;
using B = frontend::onnx::testing::OnnxModelBuilder;

// Two identical 3x3 convs and a 1x1 one. 16 channels: the second conv then reads its input in the
// block the first one reads the image in (on 8- and 16-lane CPUs alike), so that the two are one
// task in one layout.
std::string SmallCnn() {
  B b(13);
  b.Input("image", {1, 16, 8, 8});
  b.FloatInit("w1", {16, 16, 3, 3});
  b.FloatInit("w2", {16, 16, 3, 3});
  b.FloatInit("w3", {16, 16, 1, 1});
  B::Ints(b.Node("Conv", {"image", "w1"}, {"c1"}), "pads", {1, 1, 1, 1});
  b.Node("Relu", {"c1"}, {"r1"});
  B::Ints(b.Node("Conv", {"r1", "w2"}, {"c2"}), "pads", {1, 1, 1, 1});
  b.Node("Relu", {"c2"}, {"r2"});
  b.Node("Conv", {"r2", "w3"}, {"out"});
  b.Output("out");
  return fixtures::WriteTempFile("small_cnn.onnx", b.Bytes());
}

ModelTuneOptions Options(const std::string& model, const std::string& db) {
  ModelTuneOptions o;
  o.file = model;
  o.tune.db = db;
  o.tune.trials = 12;
  o.tune.batch_size = 3;
  o.tune.tuner = "random";
  o.tune.measure.repeat = 1;
  o.tune.measure.min_repeat_ms = 1;
  o.tune.measure.threads = 1;
  o.tune.device_key = "test-cpu";
  o.tune.progress = false;
  o.layouts = driver::LayoutTuning::kOff;  // the rule's blocks: the task counts below are theirs
  return o;
}

// The tasks the command's request extracts for this machine.
absl::StatusOr<driver::ModelTuning> ModelTasks(const ModelTuneOptions& o) {
  const driver::ModelTuneRequest request = ModelTuneRequestOf(o);
  return driver::ModelTuningTasks(request.model, request.tuning, target::Target::Host());
}

TEST(ModelTuneCommandTest, TunesEachDistinctLayerOnceUnderOneBudgetAndTheBuildUsesTheRecords) {
  const std::string model = SmallCnn();
  const std::string db = (std::filesystem::path(::testing::TempDir()) / "model_tune.db").string();
  std::filesystem::remove(db);
  std::ostringstream out, err;
  ASSERT_EQ(RunModelTuneCommand(Options(model, db), nullptr, out, err), 0) << err.str();
  EXPECT_THAT(out.str(), HasSubstr("3 tasks, 12 trials"));
  EXPECT_THAT(out.str(), HasSubstr("weights timing"));
  EXPECT_THAT(out.str(), HasSubstr("trials=12 tuned_kernels_ms="));
  // The 3x3 conv runs twice per inference: one layer of weight 2, a task for each algorithm.
  EXPECT_THAT(out.str(), ::testing::ContainsRegex(" 0 +2 +[0-9]+ +[0-9.]+ ms +\\*? +conv2d_nchwc:"
                                                  "1,16,8,8,16,3,3,1,1,16,16:float32"));
  EXPECT_THAT(out.str(),
              ::testing::ContainsRegex(" 0 +2 +[0-9]+ +[0-9.]+ ms +\\*? +conv2d_winograd_nchwc:"
                                       "1,16,8,8,16,3,3,1,1,16,16:float32"));
  // The algorithm marked as the one the build runs.
  const std::string chosen = out.str().find("*  conv2d_winograd_nchwc:") != std::string::npos
                                 ? "conv2d_winograd_nchwc:"
                                 : "conv2d_nchwc:1,16,8,8,16,3";
  EXPECT_THAT(out.str(), HasSubstr("--device-key test-cpu"));

  auto store = tuner::RecordStore::Open(db);
  ASSERT_TRUE(store.ok()) << store.status();
  auto counts = (*store)->CountByErrorKind();
  ASSERT_TRUE(counts.ok());
  int64_t total = 0;
  for (const auto& [kind, n] : *counts) total += n;
  EXPECT_EQ(total, 12);
  // Timed by default as layers run in a model, the weights evicted before each call, and the
  // records say so.
  auto history = (*store)->JobHistory("");
  ASSERT_TRUE(history.ok());
  for (const tuner::Record& r : *history) {
    EXPECT_EQ(r.cache_flush, tuner::CacheFlush::kWeights) << r.workload_key;
  }

  driver::ModelCompileOptions build;
  build.db = db;
  build.device_key = "test-cpu";
  absl::StatusOr<driver::CompiledModel> compiled =
      driver::CompileModel(model, build, target::Target::Host());
  ASSERT_TRUE(compiled.ok()) << compiled.status();
  ASSERT_EQ(compiled->tuned_tasks.size(), 2u) << "the 3x3 layer's faster algorithm, the 1x1";
  EXPECT_THAT(compiled->tuned_tasks[0], ::testing::StartsWith(chosen)) << out.str();
  EXPECT_TRUE(compiled->untuned_tasks.empty());

  // A second run resumes: the records count, nothing is measured again.
  std::ostringstream again, again_err;
  ASSERT_EQ(RunModelTuneCommand(Options(model, db), nullptr, again, again_err), 0)
      << again_err.str();
  auto recounted = (*store)->CountByErrorKind();
  ASSERT_TRUE(recounted.ok());
  int64_t after = 0;
  for (const auto& [kind, n] : *recounted) after += n;
  EXPECT_EQ(after, 24);
}

TEST(ModelTuneCommandTest, EachTimingEvictsBeforeEveryCallAndKeepsItsRecordsApart) {
  for (tuner::CacheFlush flush : {tuner::CacheFlush::kWeights, tuner::CacheFlush::kAll}) {
    TuneCommandOptions flags;
    flags.measure.cache_flush = flush;  // --timing weights | cold
    const tuner::MeasureOptions m = MeasureOptionsOf(flags);
    EXPECT_EQ(m.number, 1);
    EXPECT_EQ(m.min_repeat_ms, 0) << "else the evaluator raises number and times warm again";
    EXPECT_EQ(m.cache_flush, flush);
    EXPECT_GT(m.warmup_ms, 0) << "an idle CPU's clock ramps up while one call is timed";
    EXPECT_EQ(runtime::measure::TimedFlush(m), flush);
  }
  const tuner::MeasureOptions hot = MeasureOptionsOf(TuneCommandOptions());
  EXPECT_EQ(hot.cache_flush, tuner::CacheFlush::kNone);
  EXPECT_EQ(runtime::measure::TimedFlush(hot), tuner::CacheFlush::kNone);

  // Runs of the same model on the same database, timed three ways, each measure their own
  // records: none resumes from another timing's.
  const std::string model = SmallCnn();
  const std::string db = (std::filesystem::path(::testing::TempDir()) / "timings.db").string();
  std::filesystem::remove(db);
  ModelTuneOptions o = Options(model, db);
  o.tune.trials = 3;
  const tuner::CacheFlush order[] = {tuner::CacheFlush::kWeights, tuner::CacheFlush::kAll,
                                     tuner::CacheFlush::kNone};
  for (tuner::CacheFlush flush : order) {
    o.tune.measure.cache_flush = flush;
    std::ostringstream out, err;
    ASSERT_EQ(RunModelTuneCommand(o, nullptr, out, err), 0) << err.str();
    EXPECT_THAT(out.str(), HasSubstr(std::string(TimingName(flush)) + " timing"));
  }
  auto store = tuner::RecordStore::Open(db);
  ASSERT_TRUE(store.ok());
  auto history = (*store)->JobHistory("");
  ASSERT_TRUE(history.ok());
  ASSERT_EQ(history->size(), 9u);
  for (size_t i = 0; i < history->size(); ++i) {
    EXPECT_EQ((*history)[i].cache_flush, order[i / 3]) << i;
  }
}

// Two convs of two vectors of channels (this CPU's float32 lanes x 2) and a residual add: each
// conv's output may be one or two vectors.
std::string ResidualCnn(int64_t channels) {
  B b(13);
  b.Input("image", {1, channels, 8, 8});
  b.FloatInit("w1", {channels, channels, 3, 3});
  b.FloatInit("w2", {channels, channels, 3, 3});
  B::Ints(b.Node("Conv", {"image", "w1"}, {"c1"}), "pads", {1, 1, 1, 1});
  b.Node("Relu", {"c1"}, {"r1"});
  B::Ints(b.Node("Conv", {"r1", "w2"}, {"c2"}), "pads", {1, 1, 1, 1});
  b.Node("Add", {"c2", "r1"}, {"out"});
  b.Output("out");
  return fixtures::WriteTempFile("residual_cnn.onnx", b.Bytes());
}

TEST(ModelTuneCommandTest, WithLayoutsEveryBlockAndTransformIsMeasuredAndTheBuildChooses) {
  const int64_t l = target::CpuInfoOf(target::Target::Host()).Lanes(4);
  const std::string model = ResidualCnn(2 * l);
  const std::string db = (std::filesystem::path(::testing::TempDir()) / "layouts.db").string();
  std::filesystem::remove(db);
  ModelTuneOptions o = Options(model, db);
  o.layouts = driver::LayoutTuning::kOn;
  // The two convs share their workloads: conv1 reads the image in the rule's block (two
  // vectors), which is one of conv2's. One layer of 8 alternatives (input block, output block,
  // algorithm) and a transform each way. One trial each: the scheduler gives every task one
  // batch first.
  o.tune.trials = 10;
  o.tune.batch_size = 1;
  std::ostringstream out, err;
  ASSERT_EQ(RunModelTuneCommand(o, nullptr, out, err), 0) << err.str();
  EXPECT_THAT(out.str(), HasSubstr("10 tasks, 10 trials")) << out.str();
  for (const std::string& blocks : {absl::StrCat(l, ",", 2 * l), absl::StrCat(2 * l, ",", l)}) {
    // Weight 0: timed for the layout choice, not part of the model's latency.
    EXPECT_THAT(out.str(),
                ::testing::ContainsRegex(absl::StrCat(
                    " 0 +1 +[0-9.]+ ms +\\*? +layout_transform:1,", 2 * l, ",8,8,", blocks)))
        << out.str();
  }
  ModelBuildOptions build;
  build.file = model;
  build.output = (std::filesystem::path(::testing::TempDir()) / "layouts.so").string();
  build.compile.db = db;
  build.compile.device_key = "test-cpu";
  std::ostringstream built, built_err;
  ASSERT_EQ(RunModelBuildCommand(build, built, built_err), 0) << built_err.str();
  // Every layout the search weighs is measured; which one wins is up to this machine's timings.
  EXPECT_THAT(built.str(), ::testing::ContainsRegex(
                               "layout: [0-2] of 2 convs in blocks other than the rule's; kernels "
                               "and transforms [0-9.]+ ms \\(rule: [0-9.]+ ms\\), 0 without a "
                               "record \\(rule: 0\\)"))
      << built.str();
  EXPECT_THAT(built.str(), HasSubstr("0 on default configs"));
  std::filesystem::remove(build.output);
}

TEST(ModelTuneCommandTest, ByDefaultTheLayoutsAreTunedWhenTheBudgetGivesEachOfTheirTasksABatch) {
  const int64_t l = target::CpuInfoOf(target::Target::Host()).Lanes(4);
  const std::string model = ResidualCnn(2 * l);
  ModelTuneOptions o = Options(model, "");
  o.layouts = driver::LayoutTuning::kAuto;
  o.tune.batch_size = 1;
  // 10 layout tasks (above): 9 trials are short of a batch each.
  o.tune.trials = 9;
  absl::StatusOr<driver::ModelTuning> short_budget = ModelTasks(o);
  ASSERT_TRUE(short_budget.ok()) << short_budget.status();
  EXPECT_LT(short_budget->tasks.size(), 10u);
  EXPECT_TRUE(short_budget->layout.empty());
  EXPECT_EQ(short_budget->layouts_line,
            "layouts: the rule's channel blocks; tuning them too takes 10 tasks, and --trials 9 "
            "is short of one batch each (10); --layouts tunes them anyway");
  o.layouts = driver::LayoutTuning::kOn;
  absl::StatusOr<driver::ModelTuning> forced = ModelTasks(o);
  ASSERT_TRUE(forced.ok()) << forced.status();
  EXPECT_EQ(forced->tasks.size(), 10u);

  o.layouts = driver::LayoutTuning::kAuto;
  o.tune.trials = 10;
  absl::StatusOr<driver::ModelTuning> enough = ModelTasks(o);
  ASSERT_TRUE(enough.ok()) << enough.status();
  EXPECT_EQ(enough->tasks.size(), 10u);
  EXPECT_FALSE(enough->layout.empty());
  EXPECT_THAT(enough->layouts_line, HasSubstr("(10 tasks; --no-layouts: the rule's blocks only)"));
  o.layouts = driver::LayoutTuning::kOff;
  absl::StatusOr<driver::ModelTuning> off = ModelTasks(o);
  ASSERT_TRUE(off.ok()) << off.status();
  EXPECT_EQ(off->tasks.size(), short_budget->tasks.size());
  EXPECT_EQ(off->layouts_line, "layouts: the rule's channel blocks (--no-layouts)");
}

TEST(ModelTuneCommandTest, BadInputIsRefusedWithOneLine) {
  std::ostringstream out, err;
  ModelTuneOptions o = Options(SmallCnn(), "/nonexistent-dir/x.db");
  o.tune.trials = 0;
  EXPECT_EQ(RunModelTuneCommand(o, nullptr, out, err), 2);
  EXPECT_THAT(err.str(), HasSubstr("--trials"));
  o = Options(SmallCnn(), "/nonexistent-dir/x.db");
  o.tune.target = "llvm -mtriple=aarch64-linux-gnu";
  err.str("");
  EXPECT_EQ(RunModelTuneCommand(o, nullptr, out, err), 2);
  EXPECT_THAT(err.str(), HasSubstr("cannot measure"));
  o = Options("/nonexistent-dir/model.onnx", "/nonexistent-dir/x.db");
  err.str("");
  EXPECT_EQ(RunModelTuneCommand(o, nullptr, out, err), 1);
  EXPECT_THAT(err.str(), HasSubstr("import"));
}

}  // namespace
}  // namespace tunefarm::tools
