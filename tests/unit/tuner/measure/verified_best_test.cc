// VerifyBest on a real task: the fastest recorded configs and the default are built and timed
// here in alternating rounds; what is published comes from that re-timing, not from the records
// (which the test fills with times no kernel of this size takes).
#include "tuner/measure/verified_best.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "compiler/space/config_json.h"
#include "compiler/target/target.h"
#include "tests/unit/tuner/record_store_test_util.h"
#include "tuner/record_json.h"
#include "tuner/templates/template_registry.h"
#include "tuner/workload.h"

namespace tunefarm::tuner {
namespace {

using ::testing::HasSubstr;

std::unique_ptr<Task> MatmulTask() {
  absl::StatusOr<Workload> w = ParseWorkloadKey("matmul:64,64,64");
  absl::StatusOr<target::Target> t = target::ParseTarget("llvm");
  EXPECT_TRUE(w.ok() && t.ok());
  absl::StatusOr<std::unique_ptr<Task>> task = CreateTask(*w, *t);
  EXPECT_TRUE(task.ok()) << task.status();
  return task.ok() ? *std::move(task) : nullptr;
}

Record RecordOf(const Task& task, const std::string& config, std::vector<double> repeats) {
  Record r = testing::SampleRecord(std::move(repeats));
  r.workload_key = task.key();
  r.target = task.target().str();
  r.device_key = "here";
  r.config_json = config;
  return r;
}

TEST(VerifiedBestTest, TheRecordsBestAndTheDefaultAreTimedAgainInTurns) {
  std::unique_ptr<Task> task = MatmulTask();
  ASSERT_NE(task, nullptr);
  std::vector<std::string> configs;
  for (int64_t i = 0; configs.size() < 3 && i < task->space().size();
       i += 1 + task->space().size() / 97) {
    absl::StatusOr<space::Config> c = task->space().Get(i);
    if (c.ok() && task->space().IsValid(*c)) {
      configs.push_back(CanonicalConfigJson(space::ConfigToJson(*c)).value());
    }
  }
  ASSERT_EQ(configs.size(), 3u);
  const std::string def =
      CanonicalConfigJson(space::ConfigToJson(task->DefaultConfig().value())).value();
  auto store = RecordStore::Open(testing::FreshDbPath("verified_best"));
  ASSERT_TRUE(store.ok()) << store.status();
  // Recorded times a neighbour's load could have produced: the default 100 ms, the others fast.
  ASSERT_TRUE((*store)
                  ->InsertBatch({RecordOf(*task, def, {0.1, 0.1}),
                                 RecordOf(*task, configs[0], {3e-6, 3e-6}),
                                 RecordOf(*task, configs[1], {1e-6, 1e-6}),
                                 RecordOf(*task, configs[1], {2e-6, 2e-6}),
                                 RecordOf(*task, configs[2], {2e-6, 2e-6})})
                  .ok());
  VerifyOptions options;
  options.top = 2;
  options.interleaved.rounds = 10;
  options.interleaved.min_slot_ms = 2;
  options.interleaved.warmup_ms = 1;
  absl::StatusOr<VerifiedBest> v = VerifyBest(**store, *task, "here", options);
  ASSERT_TRUE(v.ok()) << v.status();
  // The two fastest distinct configs by their best record, fastest first.
  ASSERT_EQ(v->candidates.size(), 2u);
  EXPECT_EQ(v->candidates[0].config_json, configs[1]);
  EXPECT_DOUBLE_EQ(v->candidates[0].recorded_seconds, 1e-6);
  EXPECT_EQ(v->candidates[1].config_json, configs[2]);
  EXPECT_EQ(v->default_config.config_json, def);
  EXPECT_DOUBLE_EQ(v->default_config.recorded_seconds, 0.1);
  // Re-timed for real: no 64^3 matmul takes 100 ms or 1 us.
  EXPECT_GT(v->default_config.retimed_seconds, 1e-6);
  EXPECT_LT(v->default_config.retimed_seconds, 0.05);
  for (const VerifiedConfig& c : v->candidates) EXPECT_GT(c.retimed_seconds, 0);
  ASSERT_GE(v->winner, 0);
  ASSERT_LT(v->winner, 2);
  EXPECT_EQ(v->winner_over_default.rounds, 10);
  EXPECT_LE(v->winner_over_default.low, v->winner_over_default.ratio);
  EXPECT_GE(v->winner_over_default.high, v->winner_over_default.ratio);
  EXPECT_TRUE(v->timed_alone) << v->timing_note;
}

TEST(VerifiedBestTest, NothingToVerifyIsNotFound) {
  std::unique_ptr<Task> task = MatmulTask();
  ASSERT_NE(task, nullptr);
  auto store = RecordStore::Open(testing::FreshDbPath("verified_none"));
  ASSERT_TRUE(store.ok());
  absl::StatusOr<VerifiedBest> v = VerifyBest(**store, *task, "here");
  EXPECT_EQ(v.status().code(), absl::StatusCode::kNotFound);
  EXPECT_THAT(v.status().message(), HasSubstr("matmul:64,64,64"));
}

}  // namespace
}  // namespace tunefarm::tuner
