// Simulated annealing: finds the maximum of a known scorer, returns only allowed valid configs,
// best first, and is reproducible.
#include "tuner/search/simulated_annealing.h"

#include <gtest/gtest.h>

#include "tests/unit/tuner/search/search_test_util.h"

namespace tunefarm::tuner {
namespace {

TEST(SimulatedAnnealingTest, FindsTheBestAllowedPoint) {
  auto space = testing::MakeSyntheticSpace();
  BatchScorer score = [](const std::vector<space::Config>& configs) {
    std::vector<double> s;
    for (const space::Config& c : configs) s.push_back(testing::SyntheticThroughput(c));
    return absl::StatusOr<std::vector<double>>(s);
  };
  std::mt19937_64 rng(1);
  std::vector<space::Config> starts;
  for (int64_t i = 3; starts.size() < 8; i += 41) {
    if (space->IsValid(*space->Get(i % space->size())))
      starts.push_back(*space->Get(i % space->size()));
  }
  // The best point itself is excluded: the answer must be the runner-up.
  int64_t best_index = -1;
  double best = 0;
  for (int64_t i = 0; i < space->size(); ++i) {
    space::Config c = *space->Get(i);
    if (space->IsValid(c) && testing::SyntheticThroughput(c) > best) {
      best = testing::SyntheticThroughput(c);
      best_index = i;
    }
  }
  auto excluded = [&](int64_t i) { return i == best_index; };
  AnnealingOptions options{.chains = 8, .steps = 200, .keep = 5};
  AnnealingStats stats;
  absl::StatusOr<std::vector<std::pair<space::Config, double>>> found =
      Anneal(*space, starts, score, excluded, rng, options, &stats);
  ASSERT_TRUE(found.ok()) << found.status();
  ASSERT_EQ(found->size(), 5u);
  double runner_up = 0;
  for (int64_t i = 0; i < space->size(); ++i) {
    space::Config c = *space->Get(i);
    if (i != best_index && space->IsValid(c))
      runner_up = std::max(runner_up, testing::SyntheticThroughput(c));
  }
  EXPECT_DOUBLE_EQ((*found)[0].second, runner_up);
  for (size_t i = 0; i < found->size(); ++i) {
    EXPECT_TRUE(space->IsValid((*found)[i].first));
    EXPECT_NE((*found)[i].first.index(), best_index);
    if (i > 0) {
      EXPECT_GE((*found)[i - 1].second, (*found)[i].second);
    }
  }
  EXPECT_GT(stats.scored, 8);
  std::mt19937_64 rng2(1);
  absl::StatusOr<std::vector<std::pair<space::Config, double>>> again =
      Anneal(*space, starts, score, excluded, rng2, options);
  ASSERT_TRUE(again.ok());
  for (size_t i = 0; i < found->size(); ++i) {
    EXPECT_EQ((*again)[i].first.index(), (*found)[i].first.index());
  }
}

}  // namespace
}  // namespace tunefarm::tuner
