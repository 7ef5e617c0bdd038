// Rank agreement measures on small hand-checked inputs.
#include "tuner/search/rank_metrics.h"

#include <gtest/gtest.h>

namespace tunefarm::tuner {
namespace {

TEST(RankMetricsTest, HandCheckedValues) {
  EXPECT_DOUBLE_EQ(SpearmanCorrelation({1, 2, 3, 4}, {10, 20, 30, 40}), 1);
  EXPECT_DOUBLE_EQ(SpearmanCorrelation({1, 2, 3, 4}, {4, 3, 2, 1}), -1);
  // Ranks 0,1,2 vs 1,0,2: 1 - 6 * 2 / (3 * 8) = 0.5.
  EXPECT_DOUBLE_EQ(SpearmanCorrelation({1, 2, 3}, {2, 1, 3}), 0.5);
  EXPECT_DOUBLE_EQ(SpearmanCorrelation({1, 1, 1}, {1, 2, 3}), 0);
  // 2 concordant, 1 discordant pair of 3.
  EXPECT_NEAR(KendallTau({1, 2, 3}, {2, 1, 3}), 1.0 / 3.0, 1e-12);
  EXPECT_NEAR(PairwiseAccuracy({1, 2, 3}, {2, 1, 3}), 2.0 / 3.0, 1e-12);
  // A predicted tie counts one half; equal truths are not pairs.
  EXPECT_DOUBLE_EQ(PairwiseAccuracy({1, 1}, {1, 2}), 0.5);
  EXPECT_DOUBLE_EQ(PairwiseAccuracy({1, 2}, {3, 3}), 0.5);
}

}  // namespace
}  // namespace tunefarm::tuner
