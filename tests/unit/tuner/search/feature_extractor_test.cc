// FeatureExtractor on a real task: lowered + knob features, the cache, configs that fail to
// apply, knob-only mode, and use from two threads.
#include "tuner/search/feature_extractor.h"

#include <chrono>
#include <gtest/gtest.h>
#include <random>
#include <thread>

#include "compiler/space/config_sampler.h"
#include "tests/unit/tuner/search/search_test_util.h"
#include "tuner/search/knob_features.h"
#include "tuner/templates/template_registry.h"

namespace tunefarm::tuner {
namespace {

TEST(FeatureExtractorTest, FullRowsAreLoopPlusKnobFeaturesAndCached) {
  std::unique_ptr<Task> task = testing::MakeMatmulTask(64, 64, 64);
  ASSERT_NE(task, nullptr);
  FeatureExtractor ex(*task);
  EXPECT_EQ(ex.length(), LoopFeatureLength({}) + KnobFeatureLength(task->space()));
  space::Config c = *task->space().Get(5);
  FeatureRow row = ex.Get(c);
  ASSERT_TRUE(row.valid);
  ASSERT_EQ(row.values.size(), static_cast<size_t>(ex.length()));
  EXPECT_EQ(row.values[0], 1);  // a nest is present
  std::vector<float> knobs = KnobFeatureVector(c);
  EXPECT_TRUE(std::equal(knobs.begin(), knobs.end(), row.values.end() - knobs.size()));
  EXPECT_EQ(ex.cached(), 1u);
  EXPECT_EQ(ex.Get(c).values, row.values);
  EXPECT_EQ(ex.cached(), 1u);
  // Different schedules give different loop features.
  EXPECT_NE(ex.Get(*task->space().Get(6)).values, row.values);
}

TEST(FeatureExtractorTest, GpuTasksLowerAsCudaWithThreadLoops) {
  absl::StatusOr<std::unique_ptr<Task>> task =
      CreateTask(*ParseWorkloadKey("conv2d:2,16,14,14,32,3,3,1,1"), *target::ParseTarget("cuda"));
  ASSERT_TRUE(task.ok()) << task.status();
  FeatureExtractor ex(**task);
  std::mt19937_64 rng(3);
  std::vector<float> first;
  for (int i = 0; i < 4; ++i) {
    FeatureRow row = ex.Get(*space::SampleValidConfig((*task)->space(), rng));
    ASSERT_TRUE(row.valid);
    EXPECT_EQ(row.values[0], 1);
    if (i == 0) {
      first = row.values;
    } else {
      EXPECT_NE(row.values, first);
    }
  }
}

TEST(FeatureExtractorTest, ConfigThatFailsToApplyIsAZeroRowFlaggedInvalid) {
  std::unique_ptr<Task> task = testing::MakeMatmulTask(64, 64, 64);
  ASSERT_NE(task, nullptr);
  FeatureExtractor ex(*task);
  const space::ConfigSpace& s = task->space();
  std::vector<int64_t> genes = s.Get(0)->knob_indices();
  genes[s.KnobPosition("fail")] = 1;
  FeatureRow row = ex.Get(*s.FromKnobIndices(genes));
  EXPECT_FALSE(row.valid);
  ASSERT_EQ(row.values.size(), static_cast<size_t>(ex.length()));
  EXPECT_TRUE(std::all_of(row.values.begin(), row.values.end(), [](float v) { return v == 0; }));
}

TEST(FeatureExtractorTest, KnobOnlyNeedsNoLowering) {
  std::unique_ptr<Task> task = testing::MakeMatmulTask(64, 64, 64);
  ASSERT_NE(task, nullptr);
  FeatureExtractor ex(*task, FeatureOptions{.knob_only = true});
  EXPECT_EQ(ex.length(), KnobFeatureLength(task->space()));
  space::Config c = *task->space().Get(11);
  EXPECT_EQ(ex.Get(c).values, KnobFeatureVector(c));
  FeatureExtractor bare(task->space());
  EXPECT_TRUE(bare.knob_only());
  EXPECT_EQ(bare.Get(c).values, KnobFeatureVector(c));
}

TEST(FeatureExtractorTest, TwoThreadsSeeTheSameRows) {
  std::unique_ptr<Task> task = testing::MakeMatmulTask(64, 64, 64);
  ASSERT_NE(task, nullptr);
  FeatureExtractor shared(*task), alone(*task);
  std::vector<space::Config> configs;
  for (int64_t i = 0; i < 24; ++i) configs.push_back(*task->space().Get(i * 37));
  std::vector<FeatureRow> a, b;
  auto start = std::chrono::steady_clock::now();
  std::thread t1([&] { a = shared.GetBatch(configs); });
  std::thread t2([&] { b = shared.GetBatch(configs); });
  t1.join();
  t2.join();
  double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::vector<FeatureRow> want = alone.GetBatch(configs);
  for (size_t i = 0; i < configs.size(); ++i) {
    EXPECT_EQ(a[i].values, want[i].values) << i;
    EXPECT_EQ(b[i].values, want[i].values) << i;
  }
  EXPECT_EQ(shared.cached(), configs.size());
  // For the report: the cost of one full (lowering) feature row, measured on this machine.
  std::printf("[ info ] full features: %.2f ms per config (2 threads, %zu configs)\n",
              1e3 * seconds / static_cast<double>(configs.size()), configs.size());
}

}  // namespace
}  // namespace tunefarm::tuner
