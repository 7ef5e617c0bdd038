// The tuning loop's queries: a task's earlier records, other shapes of a template (transfer), the
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
  auto rows = (*store)->TaskRecords("matmul:8,8,8:float32", "llvm", "dev-a", false);
  ASSERT_TRUE(rows.ok()) << rows.status();
  ASSERT_EQ(rows->size(), 2u);
  EXPECT_EQ((*rows)[0], a);
  EXPECT_EQ((*rows)[1], d);
}

TEST(RecordStoreQueriesTest, TemplateRecordsMatchTheTemplateNameExactlyAndExcludeTheTask) {
  auto store = RecordStore::Open(FreshDbPath("template_records"));
  ASSERT_TRUE(store.ok()) << store.status();
  Record own = With(SampleRecord({1.0}), "matmul:8,8,8:float32", "d", {1.0});
  Record other = With(SampleRecord({1.0}), "matmul:16,16,16:float32", "d", {1.0});
  Record newer = With(SampleRecord({1.0}), "matmul:32,32,32:float32", "e", {1.0});
  // "matmulX" must not match "matmul" (and '_' is no wildcard): the prefix includes the ':'.
  Record lookalike = With(SampleRecord({1.0}), "matmulX:8,8,8:float32", "d", {1.0});
  Record dense = With(SampleRecord({1.0}), "dense:8,8,8:float32", "d", {1.0});
  ASSERT_TRUE((*store)->InsertBatch({own, other, lookalike, dense, newer}).ok());
  auto rows = (*store)->TemplateRecords("matmul", "llvm", "matmul:8,8,8:float32", false, 10);
  ASSERT_TRUE(rows.ok()) << rows.status();
  ASSERT_EQ(rows->size(), 2u);
  EXPECT_EQ((*rows)[0], newer);  // newest first
  EXPECT_EQ((*rows)[1], other);
  auto limited = (*store)->TemplateRecords("matmul", "llvm", "matmul:8,8,8:float32", false, 1);
  ASSERT_TRUE(limited.ok());
  EXPECT_EQ(limited->size(), 1u);
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

TEST(RecordStoreQueriesTest, RecordsTimedFromColdCachesAreNeverComparedWithWarmOnes) {
  auto store = RecordStore::Open(FreshDbPath("cold_cache"));
  ASSERT_TRUE(store.ok()) << store.status();
  const std::string key = "matmul:8,8,8:float32";
  // Warm times are the faster ones: any query that mixed the two would return the warm record.
  Record warm = With(SampleRecord({1.0}), key, "dev", {1.0});
  Record cold = With(SampleRecord({1.0}), key, "dev", {3.0});
  cold.cold_cache = true;
  Record cold_other = With(SampleRecord({1.0}), "matmul:16,16,16:float32", "dev", {2.0});
  cold_other.cold_cache = true;
  ASSERT_TRUE((*store)->InsertBatch({warm, cold, cold_other}).ok());

  auto cold_rows = (*store)->TaskRecords(key, "llvm", "dev", true);
  ASSERT_TRUE(cold_rows.ok()) << cold_rows.status();
  ASSERT_EQ(cold_rows->size(), 1u);
  EXPECT_EQ(cold_rows->front(), cold);
  auto warm_rows = (*store)->TaskRecords(key, "llvm", "dev", false);
  ASSERT_TRUE(warm_rows.ok());
  ASSERT_EQ(warm_rows->size(), 1u);
  EXPECT_EQ(warm_rows->front(), warm);

  auto best_cold = (*store)->Best({key, "llvm", "dev", std::nullopt, /*cold_cache=*/true});
  ASSERT_TRUE(best_cold.ok() && best_cold->has_value());
  EXPECT_EQ(**best_cold, cold);
  auto best_warm = (*store)->Best({key, "llvm", "dev", std::nullopt, /*cold_cache=*/false});
  ASSERT_TRUE(best_warm.ok() && best_warm->has_value());
  EXPECT_EQ(**best_warm, warm);

  // Transfer learning reads other shapes timed the same way only.
  auto template_cold = (*store)->TemplateRecords("matmul", "llvm", key, true, 10);
  ASSERT_TRUE(template_cold.ok());
  ASSERT_EQ(template_cold->size(), 1u);
  EXPECT_EQ(template_cold->front(), cold_other);
  auto template_warm = (*store)->TemplateRecords("matmul", "llvm", key, false, 10);
  ASSERT_TRUE(template_warm.ok());
  EXPECT_TRUE(template_warm->empty());

  // The best per device is per timing as well: both show, fastest first.
  auto per_device = (*store)->BestPerDevice(key, "llvm");
  ASSERT_TRUE(per_device.ok());
  ASSERT_EQ(per_device->size(), 2u);
  EXPECT_EQ((*per_device)[0], warm);
  EXPECT_EQ((*per_device)[1], cold);
  auto with_ids = (*store)->BestPerDeviceWithIds(key);
  ASSERT_TRUE(with_ids.ok());
  ASSERT_EQ(with_ids->size(), 2u);
  EXPECT_TRUE((*with_ids)[1].record.cold_cache);

  auto default_cold =
      (*store)->BestWithConfig({key, "llvm", "dev", std::nullopt, true}, cold.config_json);
  ASSERT_TRUE(default_cold.ok() && default_cold->has_value());
  EXPECT_EQ((*default_cold)->record, cold);
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
