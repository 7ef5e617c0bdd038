// GridSearch: valid configs in index order, each once, the optimum by exhaustion.
#include "tuner/search/grid_search.h"

#include <gtest/gtest.h>

#include "tests/unit/tuner/search/search_test_util.h"

namespace tunefarm::tuner {
namespace {

TEST(GridSearchTest, VisitsValidConfigsInIndexOrder) {
  auto space = testing::MakeSyntheticSpace();
  GridSearch search(*space);
  testing::SearchRun run = testing::RunSynthetic(search, 1000, 32);
  std::vector<int64_t> want;
  for (int64_t i = 0; i < space->size(); ++i) {
    if (space->IsValid(*space->Get(i))) want.push_back(i);
  }
  EXPECT_EQ(run.proposed, want);
  EXPECT_DOUBLE_EQ(run.best, testing::BestSynthetic(*space));
  EXPECT_TRUE(search.NextBatch(1)->empty());
}

TEST(GridSearchTest, SkipsConfigsAlreadyReported) {
  auto space = testing::MakeSyntheticSpace();
  std::vector<int64_t> valid;
  for (int64_t i = 0; i < space->size() && valid.size() < 4; ++i) {
    if (space->IsValid(*space->Get(i))) valid.push_back(i);
  }
  ASSERT_EQ(valid.size(), 4u);
  GridSearch search(*space);
  ASSERT_TRUE(search
                  .Update({*space->Get(valid[0]), *space->Get(valid[2])},
                          {testing::SyntheticResult(1), testing::SyntheticResult(0)})
                  .ok());
  absl::StatusOr<std::vector<space::Config>> batch = search.NextBatch(2);
  ASSERT_TRUE(batch.ok());
  ASSERT_EQ(batch->size(), 2u);
  EXPECT_EQ((*batch)[0].index(), valid[1]);
  EXPECT_EQ((*batch)[1].index(), valid[3]);
}

}  // namespace
}  // namespace tunefarm::tuner
