// The tuning loop's queries: a task's earlier records, other shapes and devices (transfer), the
// best per device, and cost models saved with the records.
#include <gtest/gtest.h>

#include "tests/unit/tuner/record_store_test_util.h"
#include "tuner/record_store.h"

namespace tunefarm::tuner {
namespace {

using testing::FreshDbPath;
using testing::SampleRecord;

Record With(Record r, std::string workload, std::string device, std::vector<double> repeats) {
  r.workload_key = std::move(workload);
  r.device_key = std::move(device);
  r.repeat_seconds = std::move(repeats);
  return r;
}

TEST(RecordStoreQueriesTest, TaskRecordsAreThoseOfOneWorkloadTargetAndDevice) {
  auto store = RecordStore::Open(FreshDbPath("task_records"));
  ASSERT_TRUE(store.ok()) << store.status();
  Record a = With(SampleRecord({1.0}), "matmul:8,8,8:float32", "dev-a", {3.0});
  Record b = With(SampleRecord({1.0}), "matmul:8,8,8:float32", "dev-b", {2.0});
  Record c = With(SampleRecord({1.0}), "matmul:16,16,16:float32", "dev-a", {1.0});
  Record d = With(SampleRecord({1.0}), "matmul:8,8,8:float32", "dev-a", {4.0});
  ASSERT_TRUE((*store)->InsertBatch({a, b, c, d}).ok());
  auto rows = (*store)->TaskRecords("matmul:8,8,8:float32", "llvm", "dev-a", CacheFlush::kNone);
  ASSERT_TRUE(rows.ok()) << rows.status();
  ASSERT_EQ(rows->size(), 2u);
  EXPECT_EQ((*rows)[0], a);
  EXPECT_EQ((*rows)[1], d);
}

TransferQuery SameTargetQuery(std::string key, CacheFlush cache_flush, int64_t limit) {
  TransferQuery q;
  q.template_name = "matmul";
  q.workload_key = std::move(key);
  q.target = "llvm";
  q.other_devices = false;
  q.cache_flush = cache_flush;
  q.limit = limit;
  return q;
}

TEST(RecordStoreQueriesTest, TransferRecordsMatchTheTemplateNameExactlyAndExcludeTheTask) {
  auto store = RecordStore::Open(FreshDbPath("template_records"));
  ASSERT_TRUE(store.ok()) << store.status();
  Record own = With(SampleRecord({1.0}), "matmul:8,8,8:float32", "d", {1.0});
  Record other = With(SampleRecord({1.0}), "matmul:16,16,16:float32", "d", {1.0});
  Record newer = With(SampleRecord({1.0}), "matmul:32,32,32:float32", "e", {1.0});
  // "matmulX" must not match "matmul" (and '_' is no wildcard): the prefix includes the ':'.
  Record lookalike = With(SampleRecord({1.0}), "matmulX:8,8,8:float32", "d", {1.0});
  Record dense = With(SampleRecord({1.0}), "dense:8,8,8:float32", "d", {1.0});
  ASSERT_TRUE((*store)->InsertBatch({own, other, lookalike, dense, newer}).ok());
  auto rows =
      (*store)->TransferRecords(SameTargetQuery("matmul:8,8,8:float32", CacheFlush::kNone, 10));
  ASSERT_TRUE(rows.ok()) << rows.status();
  ASSERT_EQ(rows->size(), 2u);
  EXPECT_EQ((*rows)[0], newer);  // newest first
  EXPECT_EQ((*rows)[1], other);
  auto limited =
      (*store)->TransferRecords(SameTargetQuery("matmul:8,8,8:float32", CacheFlush::kNone, 1));
  ASSERT_TRUE(limited.ok());
  EXPECT_EQ(limited->size(), 1u);
}

TEST(RecordStoreQueriesTest, TransferRecordsOfOtherDevicesIncludeTheTasksOwnWorkloadThere) {
  auto store = RecordStore::Open(FreshDbPath("transfer_devices"));
  ASSERT_TRUE(store.ok()) << store.status();
  const std::string key = "matmul:8,8,8:float32";
  Record own = With(SampleRecord({1.0}), key, "board", {1.0});
  Record same_key_other_device = With(SampleRecord({1.0}), key, "phone", {1.0});
  Record other_shape_same_device =
      With(SampleRecord({1.0}), "matmul:16,16,16:float32", "board", {1.0});
  Record other_target = With(SampleRecord({1.0}), key, "board", {1.0});
  other_target.target = "llvm -mtriple=aarch64-linux-gnu";
  ASSERT_TRUE((*store)
                  ->InsertBatch({own, same_key_other_device, other_shape_same_device, other_target})
                  .ok());
  TransferQuery q;
  q.template_name = "matmul";
  q.workload_key = key;
  q.target = "llvm";
  q.device_key = "board";
  auto rows = (*store)->TransferRecords(q);
  ASSERT_TRUE(rows.ok()) << rows.status();
  ASSERT_EQ(rows->size(), 3u);  // all but the task's own history, newest first
  EXPECT_EQ((*rows)[0], other_target);
  EXPECT_EQ((*rows)[1], other_shape_same_device);
  EXPECT_EQ((*rows)[2], same_key_other_device);
  // Without a device key the workload on every device of the target is the task's own.
  q.device_key.clear();
  rows = (*store)->TransferRecords(q);
  ASSERT_TRUE(rows.ok()) << rows.status();
  ASSERT_EQ(rows->size(), 2u);
  EXPECT_EQ((*rows)[0], other_target);
  EXPECT_EQ((*rows)[1], other_shape_same_device);
}

// A key's records from an emulator (fast or slow, they are not the device's times) count only
// until the key has a record from a real device; then every best query leaves them out.
TEST(RecordStoreQueriesTest, BestNeverMixesEmulatedAndRealRecordsOfAKey) {
  auto store = RecordStore::Open(FreshDbPath("emulated_best"));
  ASSERT_TRUE(store.ok()) << store.status();
  const std::string key = "matmul:8,8,8:float32";
  Record emulated_fast = With(SampleRecord({1.0}), key, "board", {0.5});
  emulated_fast.emulated = true;
  ASSERT_TRUE((*store)->Insert(emulated_fast).ok());
  auto alone = (*store)->Best({key, "llvm", "board", std::nullopt, CacheFlush::kNone});
  ASSERT_TRUE(alone.ok() && alone->has_value()) << alone.status();
  EXPECT_TRUE((*alone)->emulated);  // nothing else to go by: used, and it says so

  Record real_slow = With(SampleRecord({1.0}), key, "board", {2.0});
  ASSERT_TRUE((*store)->Insert(real_slow).ok());
  auto best = (*store)->Best({key, "llvm", "board", std::nullopt, CacheFlush::kNone});
  ASSERT_TRUE(best.ok() && best->has_value()) << best.status();
  EXPECT_EQ(**best, real_slow);
  auto per_device = (*store)->BestPerDevice(key, "");
  ASSERT_TRUE(per_device.ok()) << per_device.status();
  ASSERT_EQ(per_device->size(), 1u);
  EXPECT_EQ(per_device->front(), real_slow);
  auto with_ids = (*store)->BestPerDeviceWithIds(key);
  ASSERT_TRUE(with_ids.ok()) << with_ids.status();
  ASSERT_EQ(with_ids->size(), 1u);
  EXPECT_EQ(with_ids->front().record, real_slow);
  auto with_config = (*store)->BestWithConfig(
      {key, "llvm", "board", std::nullopt, CacheFlush::kNone}, emulated_fast.config_json);
  ASSERT_TRUE(with_config.ok()) << with_config.status();
  EXPECT_EQ((*with_config)->record, real_slow);  // same config: the real device's time

  // Another key's emulated records are not affected by this key's real ones.
  Record other_key = With(SampleRecord({1.0}), key, "other-board", {0.7});
  other_key.emulated = true;
  ASSERT_TRUE((*store)->Insert(other_key).ok());
  per_device = (*store)->BestPerDevice(key, "");
  ASSERT_TRUE(per_device.ok());
  ASSERT_EQ(per_device->size(), 2u);
  EXPECT_EQ(per_device->front(), other_key);
}

TEST(RecordStoreQueriesTest, BestPerDeviceGivesTheFastestOkRecordOfEachDevice) {
  auto store = RecordStore::Open(FreshDbPath("best_per_device"));
  ASSERT_TRUE(store.ok()) << store.status();
  const std::string key = "matmul:8,8,8:float32";
  Record a_slow = With(SampleRecord({1.0}), key, "dev-a", {5.0, 5.0, 5.0});
  Record a_fast = With(SampleRecord({1.0}), key, "dev-a", {2.0, 1.0, 9.0});  // median 2
  Record a_failed = With(SampleRecord({}, ErrorKind::kRuntimeError), key, "dev-a", {});
  Record b_only = With(SampleRecord({1.0}), key, "dev-b", {3.0});
  ASSERT_TRUE((*store)->InsertBatch({a_slow, a_fast, a_failed, b_only}).ok());
  auto best = (*store)->BestPerDevice(key, "");
  ASSERT_TRUE(best.ok()) << best.status();
  ASSERT_EQ(best->size(), 2u);
  EXPECT_EQ((*best)[0], a_fast);
  EXPECT_EQ((*best)[1], b_only);
  auto other_target = (*store)->BestPerDevice(key, "llvm -mtriple=aarch64-linux-gnu");
  ASSERT_TRUE(other_target.ok());
  EXPECT_TRUE(other_target->empty());
}

TEST(RecordStoreQueriesTest, RecordsTimedDifferentlyAreNeverComparedWithEachOther) {
  auto store = RecordStore::Open(FreshDbPath("cache_flush"));
  ASSERT_TRUE(store.ok()) << store.status();
  const std::string key = "matmul:8,8,8:float32";
  // Warm times are the fastest and every-cache-flushed the slowest: a query that mixed timings
  // would return a record of another timing than it asked for.
  Record warm = With(SampleRecord({1.0}), key, "dev", {1.0});
  Record weights = With(SampleRecord({1.0}), key, "dev", {2.0});
  weights.cache_flush = CacheFlush::kWeights;
  Record cold = With(SampleRecord({1.0}), key, "dev", {3.0});
  cold.cache_flush = CacheFlush::kAll;
  Record cold_other = With(SampleRecord({1.0}), "matmul:16,16,16:float32", "dev", {2.0});
  cold_other.cache_flush = CacheFlush::kAll;
  ASSERT_TRUE((*store)->InsertBatch({warm, weights, cold, cold_other}).ok());

  for (const Record& want : {warm, weights, cold}) {
    SCOPED_TRACE(std::string(runtime::measure::CacheFlushName(want.cache_flush)));
    auto rows = (*store)->TaskRecords(key, "llvm", "dev", want.cache_flush);
    ASSERT_TRUE(rows.ok()) << rows.status();
    ASSERT_EQ(rows->size(), 1u);
    EXPECT_EQ(rows->front(), want);
    auto best = (*store)->Best({key, "llvm", "dev", std::nullopt, want.cache_flush});
    ASSERT_TRUE(best.ok() && best->has_value());
    EXPECT_EQ(**best, want);
    auto with_default = (*store)->BestWithConfig(
        {key, "llvm", "dev", std::nullopt, want.cache_flush}, want.config_json);
    ASSERT_TRUE(with_default.ok() && with_default->has_value());
    EXPECT_EQ((*with_default)->record, want);
  }

  // Transfer learning reads other shapes timed the same way only.
  auto template_cold = (*store)->TransferRecords(SameTargetQuery(key, CacheFlush::kAll, 10));
  ASSERT_TRUE(template_cold.ok());
  ASSERT_EQ(template_cold->size(), 1u);
  EXPECT_EQ(template_cold->front(), cold_other);
  for (CacheFlush other : {CacheFlush::kNone, CacheFlush::kWeights}) {
    auto template_other = (*store)->TransferRecords(SameTargetQuery(key, other, 10));
    ASSERT_TRUE(template_other.ok());
    EXPECT_TRUE(template_other->empty());
  }

  // The best per device is per timing as well: all three show, fastest first.
  auto per_device = (*store)->BestPerDevice(key, "llvm");
  ASSERT_TRUE(per_device.ok());
  ASSERT_EQ(per_device->size(), 3u);
  EXPECT_EQ((*per_device)[0], warm);
  EXPECT_EQ((*per_device)[1], weights);
  EXPECT_EQ((*per_device)[2], cold);
  auto with_ids = (*store)->BestPerDeviceWithIds(key);
  ASSERT_TRUE(with_ids.ok());
  ASSERT_EQ(with_ids->size(), 3u);
  EXPECT_EQ((*with_ids)[1].record.cache_flush, CacheFlush::kWeights);
  EXPECT_EQ((*with_ids)[2].record.cache_flush, CacheFlush::kAll);
}

TEST(RecordStoreQueriesTest, CostModelsAreStoredAsBytesAndReplaced) {
  std::string path = FreshDbPath("models");
  std::string bytes("model\0with\0zeros\xff", 17);
  {
    auto store = RecordStore::Open(path);
    ASSERT_TRUE(store.ok()) << store.status();
    auto none = (*store)->GetModel("matmul|llvm|d");
    ASSERT_TRUE(none.ok());
    EXPECT_FALSE(none->has_value());
    ASSERT_TRUE((*store)->PutModel("matmul|llvm|d", "old", 3).ok());
    ASSERT_TRUE((*store)->PutModel("matmul|llvm|d", bytes, 7).ok());
  }
  auto reopened = RecordStore::Open(path);
  ASSERT_TRUE(reopened.ok()) << reopened.status();
  auto got = (*reopened)->GetModel("matmul|llvm|d");
  ASSERT_TRUE(got.ok()) << got.status();
  ASSERT_TRUE(got->has_value());
  EXPECT_EQ(**got, bytes);
}

}  // namespace
}  // namespace tunefarm::tuner
