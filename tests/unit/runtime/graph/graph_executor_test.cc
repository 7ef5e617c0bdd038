// The graph executor on real model modules compiled at test time: outputs against a naive C++
// reference at 1 and 2 threads, inputs and outputs by name, the memory plan's numbers, weights
// bound in place (or copied once when misaligned), and clear errors for broken modules.
#include "runtime/graph/graph_executor.h"

#include <cmath>
#include <filesystem>
#include <gtest/gtest.h>

#include "runtime/core/thread_pool.h"
#include "tests/unit/runtime/graph/test_models.h"

namespace tunefarm::runtime {
namespace {

using testing::BuildModelLibrary;
using testing::ModelSource;
using testing::TestModel;

class GraphExecutorTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() { dir_ = new std::string(testing::ScratchDir("executor")); }
  static void TearDownTestSuite() {
    std::filesystem::remove_all(*dir_);
    delete dir_;
  }
  void TearDown() override { SetNumThreads(0); }

  // Builds `m` as <dir>/<name>.so; fails the test when the C compiler does.
  static std::string Build(const ModelSource& m, const std::string& name) {
    std::string error;
    std::string path = BuildModelLibrary(m, *dir_ + "/" + name, &error);
    EXPECT_FALSE(path.empty()) << error;
    return path;
  }

  static std::string* dir_;
};
std::string* GraphExecutorTest::dir_ = nullptr;

// Largest |a - b| relative to max(1, |b|).
double MaxError(const float* got, const std::vector<float>& want) {
  double worst = 0;
  for (size_t i = 0; i < want.size(); ++i) {
    worst = std::max(
        worst, std::fabs(double{got[i]} - want[i]) / std::max(1.0, std::fabs(double{want[i]})));
  }
  return worst;
}

constexpr double kTolerance = 1e-5;

void ExpectRunMatches(GraphExecutor& exec, const TestModel& m, bool residual, uint32_t seed) {
  std::vector<float> x = testing::RandomFloats(m.batch * m.in, seed);
  std::string error;
  ASSERT_TRUE(exec.SetInput("x", x.data(), x.size() * sizeof(float), &error)) << error;
  ASSERT_TRUE(exec.Run(&error)) << error;
  const DLTensor* y = exec.GetOutput(0);
  ASSERT_NE(y, nullptr);
  EXPECT_LE(MaxError(static_cast<const float*>(y->data), testing::Reference(m, x, residual)),
            kTolerance);
}

TEST_F(GraphExecutorTest, AnMlpMatchesTheReferenceAtOneAndTwoThreads) {
  TestModel m = testing::MakeMlp();
  std::string error;
  auto exec = GraphExecutor::Load(Build(m.source, "mlp"), &error);
  ASSERT_NE(exec, nullptr) << error;
  ASSERT_EQ(exec->inputs().size(), 1u);
  EXPECT_EQ(exec->inputs()[0].name, "x");
  EXPECT_EQ(exec->inputs()[0].shape, (std::vector<int64_t>{2, 16}));
  EXPECT_EQ(exec->inputs()[0].bytes, 128u);
  ASSERT_EQ(exec->outputs().size(), 1u);
  EXPECT_EQ(exec->outputs()[0].name, "prob");
  EXPECT_EQ(exec->num_steps(), 4);
  EXPECT_TRUE(exec->params_in_place());
  for (int threads : {1, 2}) {
    ASSERT_TRUE(SetNumThreads(threads, &error)) << error;
    ExpectRunMatches(*exec, m, /*residual=*/false, 10 + threads);
  }
  const DLTensor* prob = exec->GetOutput("prob");
  ASSERT_NE(prob, nullptr);
  EXPECT_EQ(prob->ndim, 2);
  EXPECT_EQ(prob->shape[1], 10);
  EXPECT_EQ(reinterpret_cast<uintptr_t>(prob->data) % 64, 0u);
  // x 128 + prob 128 (pinned) + h1 256 + h2 256 + logits 128, against 768 planned: the second
  // dense's output reuses the first one's bytes.
  EXPECT_EQ(exec->memory_stats().unplanned_bytes, 896u);
  EXPECT_EQ(exec->memory_stats().arena_bytes, 768u);
}

TEST_F(GraphExecutorTest, AResidualBlockMatchesTheReference) {
  TestModel m = testing::MakeResidual();
  std::string error;
  auto exec = GraphExecutor::Load(Build(m.source, "residual"), &error);
  ASSERT_NE(exec, nullptr) << error;
  for (int threads : {1, 2}) {
    ASSERT_TRUE(SetNumThreads(threads, &error)) << error;
    ExpectRunMatches(*exec, m, /*residual=*/true, 20 + threads);
  }
  EXPECT_EQ(exec->memory_stats().unplanned_bytes, 768u);
  EXPECT_EQ(exec->memory_stats().arena_bytes, 512u);
}

TEST_F(GraphExecutorTest, InputsPersistAcrossRuns) {
  TestModel m = testing::MakeMlp();
  std::string error;
  auto exec = GraphExecutor::Load(Build(m.source, "mlp_persist"), &error);
  ASSERT_NE(exec, nullptr) << error;
  std::vector<float> x = testing::RandomFloats(32, 5);
  std::memcpy(exec->MutableInput(0), x.data(), 128);
  ASSERT_TRUE(exec->Run(&error)) << error;
  std::vector<float> first(static_cast<const float*>(exec->GetOutput(0)->data),
                           static_cast<const float*>(exec->GetOutput(0)->data) + 20);
  ASSERT_TRUE(exec->Run(&error)) << error;
  EXPECT_EQ(std::memcmp(first.data(), exec->GetOutput(0)->data, 80), 0);
  EXPECT_LE(MaxError(first.data(), testing::Reference(m, x, false)), kTolerance);
}

TEST_F(GraphExecutorTest, MisalignedWeightsAreCopiedOnceAndStillCorrect) {
  TestModel m = testing::MakeMlp();
  m.source.misalign_params = true;
  std::string error;
  auto exec = GraphExecutor::Load(Build(m.source, "mlp_misaligned"), &error);
  ASSERT_NE(exec, nullptr) << error;
  EXPECT_FALSE(exec->params_in_place());
  ExpectRunMatches(*exec, m, false, 3);
}

TEST_F(GraphExecutorTest, ScalarArgumentsReachTheKernel) {
  ModelSource s;
  s.define_params = false;
  s.graph =
      "tunefarm-graph 1\nparams 0\ntensors 2\ntensor 0 float32 [5] input a\n"
      "tensor 1 float32 [5] output b\nsteps 1\nstep 0 scale in:0 out:1 int:5 float:-2.5\n";
  std::string error;
  auto exec = GraphExecutor::Load(Build(s, "scale"), &error);
  ASSERT_NE(exec, nullptr) << error;
  const float a[5] = {1, 2, 3, 4, 5};
  ASSERT_TRUE(exec->SetInput("a", a, sizeof(a), &error)) << error;
  ASSERT_TRUE(exec->Run(&error)) << error;
  const float* b = static_cast<const float*>(exec->GetOutput("b")->data);
  for (int i = 0; i < 5; ++i) EXPECT_EQ(b[i], -2.5f * a[i]);
}

TEST_F(GraphExecutorTest, WrongInputsAreRefused) {
  TestModel m = testing::MakeMlp();
  std::string error;
  auto exec = GraphExecutor::Load(Build(m.source, "mlp_inputs"), &error);
  ASSERT_NE(exec, nullptr) << error;
  float x[32] = {};
  EXPECT_FALSE(exec->SetInput("y", x, sizeof(x), &error));
  EXPECT_EQ(error, "the model has no input named 'y'");
  EXPECT_FALSE(exec->SetInput("x", x, 100, &error));
  EXPECT_EQ(error, "input 'x' takes 128 bytes, got 100");
  EXPECT_FALSE(exec->SetInput(3, x, sizeof(x), &error));
  EXPECT_EQ(exec->GetOutput("nope"), nullptr);
  EXPECT_EQ(exec->GetOutput(1), nullptr);
  EXPECT_EQ(exec->MutableInput(-1), nullptr);
}

// Loads a module whose graph is `graph` (no params) and returns the load error.
std::string LoadError(const std::string& path) {
  std::string error;
  EXPECT_EQ(GraphExecutor::Load(path, &error), nullptr);
  return error;
}

ModelSource OneStep(const std::string& step, const std::string& b_shape = "[4,8]") {
  ModelSource s;
  s.define_params = false;
  s.graph =
      "tunefarm-graph 1\nparams 0\ntensors 3\ntensor 0 float32 [4,8] input a\n"
      "tensor 1 float32 [4,8] input b\ntensor 2 float32 " +
      b_shape + " output c\nsteps 1\n" + step + "\n";
  return s;
}

TEST_F(GraphExecutorTest, StepsThatDoNotFitTheirKernelNameTheLine) {
  std::string e = LoadError(Build(OneStep("step 0 absent in:0 in:1 out:2"), "absent"));
  EXPECT_NE(e.find("graph line 8: step 0 (absent): the module has no kernel 'absent'"),
            std::string::npos)
      << e;
  e = LoadError(Build(OneStep("step 0 add_relu in:0 out:2"), "count"));
  EXPECT_NE(e.find("graph line 8: step 0 (add_relu): "), std::string::npos) << e;
  e = LoadError(Build(OneStep("step 0 add_relu in:0 in:1 out:2", "[4,9]"), "shape"));
  EXPECT_NE(e.find("graph line 8: step 0 (add_relu): argument 2 (Y)"), std::string::npos) << e;
  e = LoadError(Build(OneStep("step 0 add_relu in:0 int:3 out:2"), "kind"));
  EXPECT_NE(e.find("graph line 8: step 0 (add_relu): argument 1 (B)"), std::string::npos) << e;
  EXPECT_EQ(e.find('\n'), std::string::npos) << e;
}

TEST_F(GraphExecutorTest, BrokenModulesAreClearErrors) {
  ModelSource no_graph = OneStep("step 0 add_relu in:0 in:1 out:2");
  no_graph.define_graph = false;
  std::string e = LoadError(Build(no_graph, "no_graph"));
  EXPECT_NE(e.find("is a kernel library, not a model module: it defines no __tf_graph"),
            std::string::npos)
      << e;
  ModelSource bad = OneStep("step 0 add_relu in:0 in:1 out:7");
  e = LoadError(Build(bad, "bad_graph"));
  EXPECT_NE(e.find("bad_graph.so': graph line 8: argument 'out:7' names no tensor"),
            std::string::npos)
      << e;
  EXPECT_NE(LoadError(*dir_ + "/missing.so").find("cannot load"), std::string::npos);
}

TEST_F(GraphExecutorTest, AGraphTooBigForTheArenaLimitIsRefusedBeforeAllocating) {
  // 3 x 4 GiB of floats pass the per-tensor limit; the arena limit refuses the plan, so nothing
  // of that size is ever allocated.
  ModelSource s = OneStep("step 0 add_relu in:0 in:1 out:2");
  const std::string big = "[32768,32768]";
  for (size_t at; (at = s.graph.find("[4,8]")) != std::string::npos;) s.graph.replace(at, 5, big);
  std::string error;
  GraphLoadOptions options;
  options.max_arena_bytes = uint64_t{1} << 30;
  EXPECT_EQ(GraphExecutor::Load(Build(s, "big"), &error, options), nullptr);
  EXPECT_NE(error.find("needs a 12884901888-byte arena, more than the limit of 1073741824"),
            std::string::npos)
      << error;
}

TEST_F(GraphExecutorTest, AFailingKernelStopsTheRunWithItsLine) {
  ModelSource s = OneStep("step 0 add_relu in:0 in:1 out:2");
  s.graph.replace(s.graph.find("steps 1"), std::string::npos,
                  "steps 2\nstep 0 add_relu in:0 in:1 out:2\nstep 1 fail int:7\n");
  std::string error;
  auto exec = GraphExecutor::Load(Build(s, "fail"), &error);
  ASSERT_NE(exec, nullptr) << error;
  EXPECT_FALSE(exec->Run(&error));
  EXPECT_EQ(error, "graph line 9: step 1 (fail) returned 7");
}

}  // namespace
}  // namespace tunefarm::runtime
