// ModelBasedSearch on the synthetic space (knob features only): the optimum in few trials,
// reproducible, no repeats, random before the model is trained; and on a real matmul task with
// lowered features, the time one batch of 16 takes.
#include "tuner/search/model_based_search.h"

#include <chrono>
#include <gtest/gtest.h>
#include <set>

#include "tests/unit/tuner/search/search_test_util.h"

namespace tunefarm::tuner {
namespace {

TEST(ModelBasedSearchTest, FindsTheOptimumInFewTrials) {
  auto space = testing::MakeSyntheticSpace();
  FeatureExtractor features(*space);
  ModelBasedSearch search(features, ModelBasedOptions{.seed = 3});
  testing::SearchRun run = testing::RunSynthetic(search, 96, 16);
  EXPECT_EQ(std::set<int64_t>(run.proposed.begin(), run.proposed.end()).size(),
            run.proposed.size());
  EXPECT_DOUBLE_EQ(run.best, testing::BestSynthetic(*space));
  EXPECT_NE(search.cost_model(), nullptr);
  EXPECT_GE(search.stats().trainings, 1);
  std::printf(
      "[ info ] model-based: optimum after %d trials; last batch %.1f ms, %d SA steps, "
      "%lld points scored\n",
      run.trials_to_best, 1e3 * search.stats().last_batch_seconds, search.stats().annealing.steps,
      static_cast<long long>(search.stats().annealing.scored));
}

TEST(ModelBasedSearchTest, RandomUntilEnoughResults) {
  auto space = testing::MakeSyntheticSpace();
  FeatureExtractor features(*space);
  ModelBasedSearch search(features, ModelBasedOptions{.seed = 3, .min_train_rows = 20});
  testing::RunSynthetic(search, 16, 16);
  EXPECT_EQ(search.NextBatch(0)->size(), 0u);
  EXPECT_EQ(search.cost_model(), nullptr);  // 16 < 20 results
  testing::RunSynthetic(search, 8, 8);
  ASSERT_TRUE(search.NextBatch(4).ok());
  EXPECT_NE(search.cost_model(), nullptr);
}

TEST(ModelBasedSearchTest, SameSeedSameProposals) {
  auto space = testing::MakeSyntheticSpace();
  FeatureExtractor features(*space);
  ModelBasedSearch a(features, ModelBasedOptions{.seed = 11}),
      b(features, ModelBasedOptions{.seed = 11});
  EXPECT_EQ(testing::RunSynthetic(a, 64, 16).proposed, testing::RunSynthetic(b, 64, 16).proposed);
}

TEST(ModelBasedSearchTest, BatchIsDiverse) {
  auto space = testing::MakeSyntheticSpace();
  FeatureExtractor features(*space);
  ModelBasedSearch search(features, ModelBasedOptions{.seed = 2, .epsilon = 0});
  testing::RunSynthetic(search, 32, 16);
  absl::StatusOr<std::vector<space::Config>> batch = search.NextBatch(8);
  ASSERT_TRUE(batch.ok());
  ASSERT_EQ(batch->size(), 8u);
  for (size_t i = 0; i < batch->size(); ++i) {
    for (size_t j = i + 1; j < batch->size(); ++j) {
      EXPECT_GE(KnobDistance((*batch)[i].knob_indices(), (*batch)[j].knob_indices()), 2);
    }
  }
}

TEST(ModelBasedSearchTest, ExhaustsTheSpaceWithoutRepeats) {
  auto space = testing::MakeSyntheticSpace();
  FeatureExtractor features(*space);
  ModelBasedOptions options{.seed = 4};
  options.annealing.steps = 20;
  ModelBasedSearch search(features, options);
  testing::SearchRun run = testing::RunSynthetic(search, 1000, 64);
  EXPECT_EQ(run.proposed.size(), 387u);
  EXPECT_EQ(std::set<int64_t>(run.proposed.begin(), run.proposed.end()).size(), 387u);
}

TEST(ModelBasedSearchTest, BatchesGrowWithTheResults) {
  auto space = testing::MakeSyntheticSpace();
  FeatureExtractor features(*space);
  ModelBasedSearch search(features, ModelBasedOptions{.seed = 5});
  std::vector<size_t> sizes;
  for (int batch = 0; batch < 4; ++batch) {
    absl::StatusOr<std::vector<space::Config>> configs = search.NextBatch(16);
    ASSERT_TRUE(configs.ok()) << configs.status();
    sizes.push_back(configs->size());
    std::vector<MeasureResult> results;
    for (const space::Config& c : *configs) {
      results.push_back(testing::SyntheticResult(testing::SyntheticThroughput(c)));
    }
    ASSERT_TRUE(search.Update(*configs, results).ok());
  }
  EXPECT_EQ(sizes, (std::vector<size_t>{8, 8, 16, 16}));
  ModelBasedOptions fixed{.seed = 5};
  fixed.grow_batches = false;
  ModelBasedSearch fixed_search(features, fixed);
  testing::RunSynthetic(fixed_search, 8, 16);
  EXPECT_EQ(fixed_search.NextBatch(16)->size(), 16u);
}

// With local search, half of a model batch (or as many as are left) are one-knob moves around
// the best measured config.
TEST(ModelBasedSearchTest, LocalPicksAreOneKnobMovesAroundTheBest) {
  auto space = testing::MakeSyntheticSpace();
  FeatureExtractor features(*space);
  std::vector<int> moves;
  int available = 0;
  for (double fraction : {0.5, 0.0}) {
    ModelBasedOptions options{.seed = 7, .epsilon = 0};
    options.local_fraction = fraction;
    options.local_parents = 1;
    ModelBasedSearch search(features, options);
    testing::SearchRun run = testing::RunSynthetic(search, 16, 16);
    std::vector<int64_t> top_knobs;
    double top = -1;
    for (int64_t index : run.proposed) {
      absl::StatusOr<space::Config> c = space->Get(index);
      ASSERT_TRUE(c.ok());
      if (double t = testing::SyntheticThroughput(*c); t > top) {
        top = t;
        top_knobs = c->knob_indices();
      }
    }
    if (fraction > 0) {
      // The valid one-knob moves around the best not measured yet.
      const std::set<int64_t> seen(run.proposed.begin(), run.proposed.end());
      for (int64_t i = 0; i < space->size(); ++i) {
        absl::StatusOr<space::Config> c = space->Get(i);
        ASSERT_TRUE(c.ok());
        available += space->IsValid(*c) && !seen.contains(i) &&
                     KnobDistance(c->knob_indices(), top_knobs) == 1;
      }
    }
    absl::StatusOr<std::vector<space::Config>> batch = search.NextBatch(16);
    ASSERT_TRUE(batch.ok()) << batch.status();
    ASSERT_EQ(batch->size(), 16u);
    moves.push_back(0);
    for (const space::Config& c : *batch) {
      moves.back() += KnobDistance(c.knob_indices(), top_knobs) == 1;
    }
  }
  EXPECT_GE(moves[0], std::min(8, available)) << "local picks around the best";
  EXPECT_GE(moves[0], moves[1]) << "annealing alone";
  std::printf(
      "[ info ] one-knob moves around the best: %d of 16 (local search), %d (annealing "
      "alone); %d were left\n",
      moves[0], moves[1], available);
}

// Full features on a real (lowered) 512^3 matmul space: what one batch of 16 costs here.
TEST(ModelBasedSearchTest, RealTaskBatchOfSixteen) {
  std::unique_ptr<Task> task = testing::MakeMatmulTask(512, 512, 512);
  ASSERT_NE(task, nullptr);
  FeatureExtractor features(*task);
  ModelBasedSearch search(features, ModelBasedOptions{.seed = 1});
  // A stand-in measurement: favors inner j of 16 vectorized and inner i of 4.
  auto measure = [&](const space::Config& c) {
    if (*c.ChoiceInt("fail") == 1) return testing::SyntheticResult(0);
    double j = std::log2(static_cast<double>(c.SplitFactors("tile_j")->back()));
    double i = std::log2(static_cast<double>(c.SplitFactors("tile_i")->back()));
    double v = *c.AnnotationOf("ann_j") == space::Annotation::kVectorize ? 2 : 1;
    return testing::SyntheticResult(v * std::exp(-((j - 4) * (j - 4) + (i - 2) * (i - 2)) / 4));
  };
  double worst = 0;
  for (int batch = 0; batch < 3; ++batch) {
    auto start = std::chrono::steady_clock::now();
    absl::StatusOr<std::vector<space::Config>> configs = search.NextBatch(16);
    double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    ASSERT_TRUE(configs.ok()) << configs.status();
    // The first batch holds only the min_train_rows (8) random draws the first model needs; the
    // model's batches grow with the results (at most one config per result).
    ASSERT_EQ(configs->size(), batch < 2 ? 8u : 16u);
    if (batch > 0) worst = std::max(worst, seconds);
    std::vector<MeasureResult> results;
    for (const space::Config& c : *configs) results.push_back(measure(c));
    ASSERT_TRUE(search.Update(*configs, results).ok());
  }
  EXPECT_NE(search.cost_model(), nullptr);
  std::printf(
      "[ info ] real matmul space (%lld points): model-based batch of 16 took %.0f ms "
      "at worst (SA %d steps, %lld points scored, %zu rows lowered)\n",
      static_cast<long long>(task->space().size()), 1e3 * worst, search.stats().annealing.steps,
      static_cast<long long>(search.stats().annealing.scored), features.cached());
}

}  // namespace
}  // namespace tunefarm::tuner

namespace tunefarm::tuner {
namespace {

// A space the size of a large GEMM template's (three 4-way splits of 1024, a 6-axis reorder, an
// annotation and an unroll choice: ~10^11 points): what annealing costs per batch of 16.
TEST(ModelBasedSearchTest, LargeSpaceBatchCost) {
  space::ConfigSpace s;
  for (const char* name : {"a", "b", "c"}) {
    ASSERT_TRUE(s.DefineSplit(name, {.extent = 1024, .num_parts = 4}).ok());
  }
  ASSERT_TRUE(s.DefineReorder("order", 6).ok());
  ASSERT_TRUE(s.DefineAnnotate("ann", {space::Annotation::kNone, space::Annotation::kUnroll,
                                       space::Annotation::kVectorize})
                  .ok());
  ASSERT_TRUE(s.DefineChoice("unroll", {int64_t{0}, int64_t{16}, int64_t{64}, int64_t{512}}).ok());
  FeatureExtractor features(s);
  ModelBasedSearch search(features, ModelBasedOptions{.seed = 1});
  auto measure = [](const space::Config& c) {
    double d = 0;
    for (const char* name : {"a", "b", "c"}) {
      double x = std::log2(static_cast<double>(c.SplitFactors(name)->back()));
      d += (x - 3) * (x - 3);
    }
    return testing::SyntheticResult(std::exp(-d / 8) *
                                    (1 + 0.1 * static_cast<double>(c.knob_indices()[3] % 7)));
  };
  double worst = 0;
  for (int batch = 0; batch < 4; ++batch) {
    auto start = std::chrono::steady_clock::now();
    absl::StatusOr<std::vector<space::Config>> configs = search.NextBatch(16);
    double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    ASSERT_TRUE(configs.ok()) << configs.status();
    // The first batch holds only the min_train_rows (8) random draws the first model needs; the
    // model's batches grow with the results (at most one config per result).
    ASSERT_EQ(configs->size(), batch < 2 ? 8u : 16u);
    if (batch > 0) worst = std::max(worst, seconds);
    std::vector<MeasureResult> results;
    for (const space::Config& c : *configs) results.push_back(measure(c));
    ASSERT_TRUE(search.Update(*configs, results).ok());
  }
  std::printf(
      "[ info ] %.2g-point space: model-based batch of 16 took %.0f ms at worst "
      "(SA %d steps, %lld points scored)\n",
      static_cast<double>(s.size()), 1e3 * worst, search.stats().annealing.steps,
      static_cast<long long>(search.stats().annealing.scored));
}

}  // namespace
}  // namespace tunefarm::tuner
