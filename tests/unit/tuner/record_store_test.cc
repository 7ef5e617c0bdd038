#include "tuner/record_store.h"

#include <gtest/gtest.h>

#include "tests/unit/tuner/record_store_test_util.h"

namespace tunefarm::tuner {
namespace {

using testing::FreshDbPath;
using testing::SampleRecord;

std::unique_ptr<RecordStore> OpenOrDie(const std::string& path) {
  auto store = RecordStore::Open(path);
  EXPECT_TRUE(store.ok()) << store.status();
  return store.ok() ? *std::move(store) : nullptr;
}

TEST(RecordStoreTest, BestTakesLowestMedianOfOkRecordsOnly) {
  auto store = OpenOrDie(FreshDbPath("best"));
  ASSERT_NE(store, nullptr);
  Record slow = SampleRecord({3.0, 2.0, 9.0});  // median 3
  slow.config_json = R"({"tile_x":[1,64]})";
  Record fast = SampleRecord({1.0, 50.0, 0.5});  // median 1 (mean would be worse)
  fast.config_json = R"({"tile_x":[8,8]})";
  Record failed = SampleRecord({0.001}, ErrorKind::kWrongAnswer);
  Record other_device = SampleRecord({0.01});
  other_device.device_key = "rasp4b";
  ASSERT_TRUE(store->InsertBatch({slow, failed, fast, other_device}).ok());

  auto best = store->Best({"matmul:64,64,64:float32", "llvm", "epyc-2c", std::nullopt});
  ASSERT_TRUE(best.ok()) << best.status();
  ASSERT_TRUE(best->has_value());
  EXPECT_EQ((*best)->config_json, R"({"tile_x":[8,8]})");
  EXPECT_EQ(**best, fast);

  auto none = store->Best({"matmul:64,64,64:float32", "cuda", "epyc-2c", std::nullopt});
  ASSERT_TRUE(none.ok());
  EXPECT_FALSE(none->has_value());
}

TEST(RecordStoreTest, BestCanBeRestrictedToAVersion) {
  auto store = OpenOrDie(FreshDbPath("version"));
  ASSERT_NE(store, nullptr);
  Record old_fast = SampleRecord({0.1});
  old_fast.tunefarm_version = "0.0.9";
  Record new_slow = SampleRecord({0.2});
  ASSERT_TRUE(store->Insert(old_fast).ok());
  ASSERT_TRUE(store->Insert(new_slow).ok());
  auto any = store->Best({"matmul:64,64,64:float32", "llvm", "epyc-2c", std::nullopt});
  ASSERT_TRUE(any.ok() && any->has_value());
  EXPECT_EQ((*any)->tunefarm_version, "0.0.9");
  auto pinned = store->Best({"matmul:64,64,64:float32", "llvm", "epyc-2c", "0.1.0"});
  ASSERT_TRUE(pinned.ok() && pinned->has_value());
  EXPECT_EQ((*pinned)->repeat_seconds, std::vector<double>{0.2});
}

TEST(RecordStoreTest, JobHistoryIsInInsertionOrder) {
  auto store = OpenOrDie(FreshDbPath("history"));
  ASSERT_NE(store, nullptr);
  std::vector<int64_t> ids;
  for (int i = 0; i < 5; ++i) {
    Record r = SampleRecord({1.0 + i}, i == 2 ? ErrorKind::kRunTimeout : ErrorKind::kOk);
    r.job_id = i % 2 == 0 ? "job-a" : "job-b";
    auto id = store->Insert(r);
    ASSERT_TRUE(id.ok()) << id.status();
    ids.push_back(*id);
  }
  EXPECT_LT(ids[0], ids[4]);
  auto history = store->JobHistory("job-a");
  ASSERT_TRUE(history.ok()) << history.status();
  ASSERT_EQ(history->size(), 3u);
  EXPECT_EQ((*history)[0].repeat_seconds, std::vector<double>{1.0});
  EXPECT_EQ((*history)[1].error_kind, ErrorKind::kRunTimeout);
  EXPECT_EQ((*history)[2].repeat_seconds, std::vector<double>{5.0});
}

TEST(RecordStoreTest, CountsByErrorKind) {
  auto store = OpenOrDie(FreshDbPath("counts"));
  ASSERT_NE(store, nullptr);
  ASSERT_TRUE(store
                  ->InsertBatch({SampleRecord({1.0}), SampleRecord({}, ErrorKind::kBuildError),
                                 SampleRecord({}, ErrorKind::kBuildError),
                                 SampleRecord({}, ErrorKind::kWorkerLost)})
                  .ok());
  auto counts = store->CountByErrorKind();
  ASSERT_TRUE(counts.ok()) << counts.status();
  std::map<ErrorKind, int64_t> expected = {
      {ErrorKind::kOk, 1}, {ErrorKind::kBuildError, 2}, {ErrorKind::kWorkerLost, 1}};
  EXPECT_EQ(*counts, expected);
}

TEST(RecordStoreTest, RejectsABadConfigAndABatchStoresAllOrNothing) {
  auto store = OpenOrDie(FreshDbPath("badconfig"));
  ASSERT_NE(store, nullptr);
  Record bad = SampleRecord({1.0});
  bad.config_json = "{not json";
  EXPECT_EQ(store->Insert(bad).status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_FALSE(store->InsertBatch({SampleRecord({1.0}), bad}).ok());
  EXPECT_EQ(*store->RecordCount(), 0);
}

TEST(RecordStoreTest, WorkloadFlops) {
  auto store = OpenOrDie(FreshDbPath("flops"));
  ASSERT_NE(store, nullptr);
  ASSERT_TRUE(store->Insert(SampleRecord({1.0})).ok());
  EXPECT_EQ(*store->WorkloadFlops("matmul:64,64,64:float32"), std::nullopt);
  ASSERT_TRUE(store->PutWorkload("matmul:64,64,64:float32", 524288.0).ok());
  EXPECT_EQ(*store->WorkloadFlops("matmul:64,64,64:float32"), 524288.0);
}

}  // namespace
}  // namespace tunefarm::tuner
