// GeneticSearch: reproducible, no repeats, valid only, and the synthetic optimum within budget.
#include "tuner/search/genetic_search.h"

#include <gtest/gtest.h>
#include <set>

#include "tests/unit/tuner/search/search_test_util.h"

namespace tunefarm::tuner {
namespace {

TEST(GeneticSearchTest, FindsTheOptimumWithoutRepeats) {
  auto space = testing::MakeSyntheticSpace();
  GeneticSearch search(*space, GeneticOptions{.seed = 5, .population = 16});
  testing::SearchRun run = testing::RunSynthetic(search, 160, 16);
  EXPECT_EQ(run.proposed.size(), 160u);
  EXPECT_EQ(std::set<int64_t>(run.proposed.begin(), run.proposed.end()).size(),
            run.proposed.size());
  EXPECT_DOUBLE_EQ(run.best, testing::BestSynthetic(*space));
  std::printf("[ info ] genetic: optimum after %d trials\n", run.trials_to_best);
}

TEST(GeneticSearchTest, SameSeedSameProposals) {
  auto space = testing::MakeSyntheticSpace();
  GeneticSearch a(*space, GeneticOptions{.seed = 9}), b(*space, GeneticOptions{.seed = 9});
  EXPECT_EQ(testing::RunSynthetic(a, 96, 16).proposed, testing::RunSynthetic(b, 96, 16).proposed);
}

TEST(GeneticSearchTest, ExhaustsTheSpaceWithoutRepeats) {
  auto space = testing::MakeSyntheticSpace();
  GeneticSearch search(*space, GeneticOptions{.seed = 1});
  testing::SearchRun run = testing::RunSynthetic(search, 1000, 64);
  EXPECT_EQ(run.proposed.size(), 387u);
  EXPECT_EQ(std::set<int64_t>(run.proposed.begin(), run.proposed.end()).size(), 387u);
}

}  // namespace
}  // namespace tunefarm::tuner
