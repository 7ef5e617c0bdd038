// The model-based tuner's cost model is saved with the records at the end of a run and loads
// back from the database into a model that predicts exactly as the tuner's did.
#include <filesystem>
#include <gtest/gtest.h>

#include "tuner/measure/local_measure.h"
#include "tuner/search/strategy_factory.h"
#include "tuner/search/xgb_cost_model.h"
#include "tuner/templates/template_registry.h"
#include "tuner/tuning_loop.h"

namespace tunefarm::tuner {
namespace {

TEST(ModelSavingTest, TheModelOfARunLoadsBackFromTheDatabase) {
  std::filesystem::path dir = std::filesystem::path(::testing::TempDir()) / "tf_model_saving";
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  auto store = RecordStore::Open((dir / "tf.db").string());
  ASSERT_TRUE(store.ok()) << store.status();
  auto task = CreateTask(*ParseWorkloadKey("matmul:16,16,16"), target::Target::Host());
  ASSERT_TRUE(task.ok()) << task.status();
  MeasureOptions m;
  m.repeat = 1;
  m.min_repeat_ms = 1;
  m.threads = 1;
  auto measure = MakeLocalMeasure(m, "test-device");
  ASSERT_TRUE(measure.ok()) << measure.status();
  StrategyOptions so;
  so.name = "xgb";
  so.seed = 3;
  so.knob_features_only = true;  // cheap: the test is about saving, not about features
  auto bundle = MakeSearchStrategy(**task, so);
  ASSERT_TRUE(bundle.ok()) << bundle.status();
  TuneOptions to;
  to.trials = 24;
  to.batch_size = 12;
  auto summary =
      Tune(**task, *(*bundle)->strategy, *measure->builder, *measure->runner, store->get(), to);
  ASSERT_TRUE(summary.ok()) << summary.status();
  // 1 default + 12 + 11 trials: the model trained on the first 13 before proposing the last batch.
  const CostModel* model = (*bundle)->strategy->cost_model();
  ASSERT_NE(model, nullptr);
  ASSERT_TRUE(model->trained());
  auto saved_now = model->Save();
  ASSERT_TRUE(saved_now.ok()) << saved_now.status();

  auto bytes = (*store)->GetModel(ModelScope(**task, "test-device", CacheFlush::kNone));
  ASSERT_TRUE(bytes.ok()) << bytes.status();
  ASSERT_TRUE(bytes->has_value()) << "no model saved under "
                                  << ModelScope(**task, "test-device", CacheFlush::kNone);
  EXPECT_EQ(**bytes, *saved_now);
  XgbCostModel loaded;
  ASSERT_TRUE(loaded.Load(**bytes).ok());
  std::vector<std::vector<float>> rows;
  for (int64_t i = 0; i < 8; ++i) {
    auto c = (*task)->space().Get(i * 7919 % (*task)->space().size());
    ASSERT_TRUE(c.ok());
    rows.push_back((*bundle)->extractors.front()->Get(*c).values);
  }
  auto want = model->Predict(rows);
  auto got = loaded.Predict(rows);
  ASSERT_TRUE(want.ok() && got.ok());
  EXPECT_EQ(*got, *want);
}

}  // namespace
}  // namespace tunefarm::tuner
