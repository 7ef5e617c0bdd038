// RandomSearch: valid configs only, no repeats until the space is exhausted, the same proposals
// for the same seed, and the optimum of the synthetic function within a budget.
#include "tuner/search/random_search.h"

#include <gtest/gtest.h>
#include <set>

#include "tests/unit/tuner/search/search_test_util.h"

namespace tunefarm::tuner {
namespace {

TEST(RandomSearchTest, ExhaustsTheValidSpaceWithoutRepeats) {
  auto space = testing::MakeSyntheticSpace();
  const int64_t valid = *space->CountValid();
  ASSERT_EQ(valid, 387);
  RandomSearch search(*space, 7);
  testing::SearchRun run = testing::RunSynthetic(search, 1000, 50);
  EXPECT_EQ(static_cast<int64_t>(run.proposed.size()), valid);
  EXPECT_EQ(std::set<int64_t>(run.proposed.begin(), run.proposed.end()).size(),
            run.proposed.size());
  EXPECT_TRUE(search.NextBatch(4)->empty());
}

TEST(RandomSearchTest, SameSeedSameProposals) {
  auto space = testing::MakeSyntheticSpace();
  RandomSearch a(*space, 3), b(*space, 3), c(*space, 4);
  testing::SearchRun ra = testing::RunSynthetic(a, 64, 16), rb = testing::RunSynthetic(b, 64, 16),
                     rc = testing::RunSynthetic(c, 64, 16);
  EXPECT_EQ(ra.proposed, rb.proposed);
  EXPECT_NE(ra.proposed, rc.proposed);
}

TEST(RandomSearchTest, FindsTheOptimumWithinBudget) {
  auto space = testing::MakeSyntheticSpace();
  RandomSearch search(*space, 1);
  testing::SearchRun run = testing::RunSynthetic(search, 300, 16);
  EXPECT_DOUBLE_EQ(run.best, testing::BestSynthetic(*space));
  std::printf("[ info ] random: optimum after %d trials\n", run.trials_to_best);
}

TEST(RandomSearchTest, ResultsReportedFromElsewhereAreNeverProposed) {
  auto space = testing::MakeSyntheticSpace();
  RandomSearch search(*space, 2);
  std::vector<space::Config> resumed;
  for (int64_t i = 0; i < space->size(); i += 2) resumed.push_back(*space->Get(i));
  std::vector<MeasureResult> results(resumed.size(), testing::SyntheticResult(1));
  ASSERT_TRUE(search.Update(resumed, results).ok());
  absl::StatusOr<std::vector<space::Config>> batch = search.NextBatch(100);
  ASSERT_TRUE(batch.ok());
  EXPECT_FALSE(batch->empty());
  for (const space::Config& c : *batch) EXPECT_EQ(c.index() % 2, 1) << c.index();
  EXPECT_EQ(search.Update(resumed, {}).code(), absl::StatusCode::kInvalidArgument);
}

}  // namespace
}  // namespace tunefarm::tuner
