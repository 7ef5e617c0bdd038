// XgbCostModel: ranks a held-out set of a smooth function better than chance with both
// objectives, saves and loads to identical predictions, and turns misuse into Status.
#include "tuner/search/xgb_cost_model.h"

#include <gtest/gtest.h>
#include <random>

#include "tuner/search/rank_metrics.h"

namespace tunefarm::tuner {
namespace {

struct Data {
  std::vector<std::vector<float>> x;
  std::vector<double> y;
};

// y = a smooth bump over 3 features in [0, 1), plus an irrelevant fourth feature.
Data Smooth(int n, uint64_t seed) {
  std::mt19937_64 rng(seed);
  auto u = [&] { return static_cast<float>(static_cast<double>(rng() >> 11) * 0x1.0p-53); };
  Data d;
  for (int i = 0; i < n; ++i) {
    std::vector<float> row = {u(), u(), u(), u()};
    double r = (row[0] - 0.3) * (row[0] - 0.3) + (row[1] - 0.7) * (row[1] - 0.7) +
               0.5 * (row[2] - 0.5) * (row[2] - 0.5);
    d.x.push_back(row);
    d.y.push_back(std::exp(-4 * r));
  }
  return d;
}

class XgbObjectiveTest : public ::testing::TestWithParam<XgbObjective> {};

TEST_P(XgbObjectiveTest, RanksHeldOutRowsWell) {
  XgbCostModel model(XgbOptions{.objective = GetParam(), .rounds = 40, .seed = 1});
  EXPECT_FALSE(model.trained());
  Data train = Smooth(200, 1), test = Smooth(100, 2);
  ASSERT_TRUE(model.Fit(train.x, train.y).ok());
  EXPECT_TRUE(model.trained());
  absl::StatusOr<std::vector<double>> p = model.Predict(test.x);
  ASSERT_TRUE(p.ok()) << p.status();
  ASSERT_EQ(p->size(), test.y.size());
  EXPECT_GT(SpearmanCorrelation(*p, test.y), 0.8);
  EXPECT_GT(KendallTau(*p, test.y), 0.6);
  EXPECT_GT(PairwiseAccuracy(*p, test.y), 0.8);
}

TEST_P(XgbObjectiveTest, SaveThenLoadPredictsIdentically) {
  for (const char* format : {"ubj", "json"}) {
    SCOPED_TRACE(format);
    XgbOptions options{.objective = GetParam(), .rounds = 20, .save_format = format};
    XgbCostModel model(options);
    Data train = Smooth(80, 3), test = Smooth(30, 4);
    ASSERT_TRUE(model.Fit(train.x, train.y).ok());
    absl::StatusOr<std::string> bytes = model.Save();
    ASSERT_TRUE(bytes.ok()) << bytes.status();
    XgbCostModel loaded(options);
    ASSERT_TRUE(loaded.Load(*bytes).ok());
    EXPECT_TRUE(loaded.trained());
    EXPECT_EQ(*loaded.Predict(test.x), *model.Predict(test.x));
  }
}

INSTANTIATE_TEST_SUITE_P(Objectives, XgbObjectiveTest,
                         ::testing::Values(XgbObjective::kRankPairwise, XgbObjective::kRegression));

TEST(XgbCostModelTest, GroupsOnDifferentScalesTrainOneRanking) {
  Data a = Smooth(100, 5), b = Smooth(100, 6), test = Smooth(60, 7);
  std::vector<std::vector<float>> x = a.x;
  x.insert(x.end(), b.x.begin(), b.x.end());
  std::vector<double> y = a.y;
  for (double v : b.y) y.push_back(1e9 * v);  // another device, a billion times faster
  XgbCostModel model(XgbOptions{.rounds = 30});
  ASSERT_TRUE(model.FitGroups(x, y, {100, 100}).ok());
  EXPECT_GT(SpearmanCorrelation(*model.Predict(test.x), test.y), 0.8);
  EXPECT_EQ(model.FitGroups(x, y, {100, 99}).code(), absl::StatusCode::kInvalidArgument);
}

TEST(XgbCostModelTest, MisuseIsAStatus) {
  XgbCostModel model;
  EXPECT_EQ(model.Predict({{1, 2}}).status().code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_EQ(model.Save().status().code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_EQ(model.Fit({}, {}).code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(model.Fit({{1, 2}, {3}}, {1, 2}).code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(model.Fit({{1, 2}}, {1, 2}).code(), absl::StatusCode::kInvalidArgument);
  ASSERT_TRUE(model.Fit({{1, 2}, {3, 4}, {5, 6}}, {1, 2, 3}).ok());
  EXPECT_EQ(model.Predict({{1, 2, 3}}).status().code(), absl::StatusCode::kInvalidArgument);
  // Bytes that are not a model: XGBoost's own message comes back in the Status.
  absl::Status bad = model.Load("not a model");
  EXPECT_FALSE(bad.ok());
  EXPECT_NE(bad.message().find("xgboost load"), std::string::npos) << bad;
  EXPECT_EQ(model.Load("").code(), absl::StatusCode::kInvalidArgument);
  EXPECT_TRUE(model.trained());  // a failed load keeps the model it had
  // A space without knobs has empty feature rows: one constant column stands in.
  ASSERT_TRUE(model.Fit({{}, {}}, {1, 2}).ok());
  EXPECT_EQ(model.Predict({{}})->size(), 1u);
}

}  // namespace
}  // namespace tunefarm::tuner
