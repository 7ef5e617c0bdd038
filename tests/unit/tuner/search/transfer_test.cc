// Transfer learning: rows of a related task warm the model-based search (it is model-guided
// from its first batch and finds the optimum sooner); rows of an anti-correlated task are
// dropped once the task's own results show they rank badly. And stored records become rows.
#include <gtest/gtest.h>

#include "compiler/space/config_json.h"
#include "tests/unit/tuner/search/search_test_util.h"
#include "tuner/search/knob_features.h"
#include "tuner/search/model_based_search.h"
#include "tuner/search/transfer_rows.h"

namespace tunefarm::tuner {
namespace {

// Every other valid point of a synthetic space, measured on a 1000x faster "device".
TransferRows SyntheticRows(double sign, double shift) {
  auto space = testing::MakeSyntheticSpace();
  TransferRows rows;
  rows.source = sign > 0 ? "related" : "anti-correlated";
  for (int64_t i = 0; i < space->size(); i += 2) {
    space::Config c = *space->Get(i);
    if (!space->IsValid(c)) continue;
    rows.features.push_back(KnobFeatureVector(c));
    rows.knob_features.push_back(KnobFeatureVector(c));
    rows.throughput.push_back(1000 * testing::SyntheticThroughput(c, sign, shift));
  }
  return rows;
}

TEST(TransferTest, RelatedTaskWarmsTheSearchAndIsKept) {
  auto space = testing::MakeSyntheticSpace();
  FeatureExtractor features(*space);
  ModelBasedSearch cold(features, ModelBasedOptions{.seed = 5});
  ModelBasedSearch warm(features, ModelBasedOptions{.seed = 5});
  ASSERT_TRUE(warm.AddTransfer(SyntheticRows(1, 0.5)).ok());
  testing::SearchRun c = testing::RunSynthetic(cold, 16, 16);
  testing::SearchRun w = testing::RunSynthetic(warm, 16, 16);
  std::printf("[ info ] first batch of 16: best %.3f cold, %.3f warm (optimum %.3f)\n", c.best,
              w.best, testing::BestSynthetic(*space));
  EXPECT_NE(warm.cost_model(), nullptr);
  EXPECT_GT(w.best, c.best);
  testing::SearchRun c2 = testing::RunSynthetic(cold, 32, 16);
  testing::SearchRun w2 = testing::RunSynthetic(warm, 32, 16);
  EXPECT_GE(std::max(w.best, w2.best), std::max(c.best, c2.best));
  EXPECT_DOUBLE_EQ(std::max(w.best, w2.best), testing::BestSynthetic(*space));
  EXPECT_TRUE(warm.transfer_active());
  EXPECT_GT(warm.stats().transfer_correlation, 0.5);
  std::printf(
      "[ info ] related transfer, last judged at 32 own results: alone Spearman %.2f; "
      "cross-validated %.2f with it, %.2f without\n",
      warm.stats().transfer_correlation, warm.stats().transfer_cv_warm,
      warm.stats().transfer_cv_own);
}

TEST(TransferTest, AntiCorrelatedTaskIsDropped) {
  auto space = testing::MakeSyntheticSpace();
  FeatureExtractor features(*space);
  ModelBasedSearch search(features, ModelBasedOptions{.seed = 5});
  ASSERT_TRUE(search.AddTransfer(SyntheticRows(-1, 0)).ok());
  EXPECT_TRUE(search.transfer_active());
  testing::SearchRun run = testing::RunSynthetic(search, 96, 16);
  EXPECT_FALSE(search.transfer_active());
  EXPECT_LT(search.stats().transfer_correlation, 0);
  EXPECT_DOUBLE_EQ(run.best, testing::BestSynthetic(*space));
}

TEST(TransferTest, RecordsOfAnotherShapeBecomeRows) {
  std::unique_ptr<Task> other = testing::MakeMatmulTask(128, 64, 64);
  std::unique_ptr<Task> task = testing::MakeMatmulTask(64, 64, 64);
  ASSERT_NE(other, nullptr);
  ASSERT_NE(task, nullptr);
  FeatureExtractor other_features(*other), features(*task);
  std::vector<Record> records;
  std::vector<space::Config> configs;
  for (int64_t i : {0, 40, 80}) {
    configs.push_back(*other->space().Get(i));
    Record r;
    r.config_json = space::ConfigToJson(configs.back());
    r.repeat_seconds = {0.002, 0.001, 0.003};
    records.push_back(r);
  }
  records[2].error_kind = ErrorKind::kRuntimeError;
  Record bad;
  bad.config_json = "{\"tile_i\": [3, 3]}";
  records.push_back(bad);
  absl::StatusOr<TransferRows> rows = RowsFromRecords(other_features, records, "other");
  ASSERT_TRUE(rows.ok()) << rows.status();
  ASSERT_EQ(rows->features.size(), 3u);
  EXPECT_DOUBLE_EQ(rows->throughput[0], other->flops() / 0.002);
  EXPECT_DOUBLE_EQ(rows->throughput[2], 0);
  EXPECT_EQ(rows->features[1], other_features.Get(configs[1]).values);
  EXPECT_EQ(rows->knob_features[1], KnobFeatureVector(configs[1]));
  EXPECT_EQ(RowsFromRecords(other_features, {bad}).status().code(), absl::StatusCode::kNotFound);

  // Same template, other shape: the rows fit this task's search; knob-only rows do not.
  ModelBasedSearch search(features, ModelBasedOptions{.seed = 1});
  ASSERT_TRUE(search.AddTransfer(*rows).ok());
  absl::StatusOr<std::vector<space::Config>> batch = search.NextBatch(4);
  ASSERT_TRUE(batch.ok()) << batch.status();
  EXPECT_EQ(batch->size(), 4u);
  EXPECT_NE(search.cost_model(), nullptr);
  FeatureExtractor knob_only(*other, FeatureOptions{.knob_only = true});
  absl::StatusOr<TransferRows> short_rows = RowsFromRecords(knob_only, records);
  ASSERT_TRUE(short_rows.ok());
  EXPECT_EQ(search.AddTransfer(*short_rows).code(), absl::StatusCode::kInvalidArgument);
}

}  // namespace
}  // namespace tunefarm::tuner
