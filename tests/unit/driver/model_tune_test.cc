// driver::TuneModel with the local backend on a small CNN: tasks tuned under one budget and
// reported batch by batch, then with an output file the module built with the records, raced and
// timed against the untuned build here; a stop request ends the tuning as a result, not an error.
#include "driver/model_tune.h"

#include <algorithm>
#include <atomic>
#include <filesystem>
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "driver/local_model_tuner.h"
#include "driver/model_compiler.h"
#include "tests/testing/files.h"
#include "tests/unit/compiler/frontend/onnx/onnx_model_builder.h"

namespace tunefarm::driver {
namespace {

using ::testing::HasSubstr;
using B = frontend::onnx::testing::OnnxModelBuilder;

// A 3x3 conv (a direct and a Winograd task: a race between them) and a 1x1 one.
std::string TwoConvs() {
  B b(13);
  b.Input("image", {1, 16, 8, 8});
  b.FloatInit("w1", {16, 16, 3, 3});
  b.FloatInit("w2", {16, 16, 1, 1});
  B::Ints(b.Node("Conv", {"image", "w1"}, {"c1"}), "pads", {1, 1, 1, 1});
  b.Node("Relu", {"c1"}, {"r1"});
  b.Node("Conv", {"r1", "w2"}, {"out"});
  b.Output("out");
  return fixtures::WriteTempFile("model_tune_two_convs.onnx", b.Bytes());
}

struct Recorder : ModelTuneObserver {
  void OnStart(const std::string& line) override { lines.push_back("start: " + line); }
  void OnBatch(int index, const TunedTask& task, double) override {
    ++batches;
    last_trials[index] = task.trials;
  }
  void OnNote(const std::string& line) override { lines.push_back(line); }
  void OnTuned(const TunedModel&) override { ++tuned; }
  std::string Text() const {
    std::string all;
    for (const std::string& l : lines) all += l + "\n";
    return all;
  }
  std::vector<std::string> lines;
  std::map<int, int> last_trials;
  int batches = 0;
  int tuned = 0;
};

ModelTuneRequest Request(const std::string& model, int trials) {
  ModelTuneRequest r;
  r.model.file = model;
  r.model.layouts = LayoutTuning::kOff;
  r.tuning.trials = trials;
  r.tuning.batch_size = 3;
  r.tuning.tuner = "random";
  r.tuning.measure.repeat = 1;
  r.tuning.measure.min_repeat_ms = 1;
  r.tuning.measure.threads = 1;
  r.tuning.device_key = "model-tune-test";
  return r;
}

std::string Scratch(const std::string& name) {
  const std::string path = (std::filesystem::path(::testing::TempDir()) / name).string();
  std::filesystem::remove(path);
  return path;
}

TEST(ModelTuneTest, WithAnOutputTheTunedModuleIsBuiltRacedAndTimedAgainstTheUntunedHere) {
  const std::string model = TwoConvs();
  const std::string db = Scratch("model_tune_test.db");
  ModelTuneRequest request = Request(model, 9);
  request.output = Scratch("model_tune_test.so");
  request.race_seconds = 30;
  LocalModelTuner backend(db);
  Recorder seen;
  absl::StatusOr<ModelTuneResult> result = TuneModel(request, backend, seen);
  ASSERT_TRUE(result.ok()) << result.status();
  const std::string text = seen.Text();

  EXPECT_EQ(result->tuned.ending, TunedModel::Ending::kSucceeded);
  EXPECT_EQ(result->tuned.device_key, "model-tune-test");
  EXPECT_EQ(result->tuned.trials_done, 9);
  ASSERT_EQ(result->tuned.tasks.size(), 3u) << "direct and Winograd 3x3, the 1x1";
  EXPECT_EQ(seen.tuned, 1);
  // Every batch reported as it ended: each task's last report is its trials.
  EXPECT_GE(seen.batches, 3);
  int reported = 0;
  for (const auto& [task, trials] : seen.last_trials) reported += trials;
  EXPECT_EQ(reported, 9);
  EXPECT_THAT(seen.lines.front(), HasSubstr("start: tuning " + model));

  // The race of the 3x3 conv's two algorithms ran in the model on this machine.
  ASSERT_TRUE(result->race.has_value()) << text;
  EXPECT_GE(result->race->challenges, 0);
  EXPECT_THAT(text, HasSubstr("race on this machine: "));
  // The race's own lines reach the observer whole, one note each.
  EXPECT_TRUE(std::any_of(seen.lines.begin(), seen.lines.end(), [](const std::string& l) {
    return l.rfind("race: ", 0) == 0 &&
           l.find(" conv workloads (records within ") != std::string::npos;
  })) << text;
  EXPECT_THAT(text, HasSubstr("wrote " + request.output));

  // Timed in turns against the untuned build, with an interval around the ratio.
  ASSERT_TRUE(result->end_to_end.has_value()) << text;
  const EndToEndLatency& e = *result->end_to_end;
  EXPECT_EQ(e.measured_by, "local");
  EXPECT_GT(e.tuned_seconds, 0);
  EXPECT_GT(e.untuned_seconds, 0);
  EXPECT_EQ(e.tuned_over_untuned.rounds, 10);
  EXPECT_LE(e.tuned_over_untuned.low, e.tuned_over_untuned.ratio);
  EXPECT_GE(e.tuned_over_untuned.high, e.tuned_over_untuned.ratio);

  // The module written is the one the records build: loading it runs.
  absl::StatusOr<std::unique_ptr<ModelExecutor>> executor = OpenModelModule(request.output);
  ASSERT_TRUE(executor.ok()) << executor.status();
  EXPECT_TRUE((*executor)->Run().ok());
  std::filesystem::remove(request.output);
}

TEST(ModelTuneTest, AStopRequestEndsTuningAsAResultAndNothingIsBuilt) {
  const std::string model = TwoConvs();
  ModelTuneRequest request = Request(model, 30);
  request.output = Scratch("model_tune_stopped.so");
  LocalModelTuner backend(Scratch("model_tune_stopped.db"));
  std::atomic<bool> stop{true};
  Recorder seen;
  absl::StatusOr<ModelTuneResult> result = TuneModel(request, backend, seen, &stop);
  ASSERT_TRUE(result.ok()) << result.status();
  EXPECT_EQ(result->tuned.ending, TunedModel::Ending::kStopped);
  EXPECT_LT(result->tuned.trials_done, 30);
  EXPECT_FALSE(result->end_to_end.has_value());
  EXPECT_FALSE(std::filesystem::exists(request.output));
}

TEST(ModelTuneTest, ATargetThisMachineCannotMeasureIsRefusedBeforeAnythingIsCreated) {
  const std::string db = Scratch("model_tune_refused.db");
  ModelTuneRequest request = Request(TwoConvs(), 9);
  request.tuning.target = "llvm -mtriple=aarch64-linux-gnu";
  LocalModelTuner backend(db);
  Recorder seen;
  absl::StatusOr<ModelTuneResult> result = TuneModel(request, backend, seen);
  ASSERT_FALSE(result.ok());
  EXPECT_EQ(result.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(result.status().message(), HasSubstr("cannot measure"));
  EXPECT_FALSE(std::filesystem::exists(db));
  EXPECT_TRUE(seen.lines.empty());
}

}  // namespace
}  // namespace tunefarm::driver
