// The dashboard's record store queries: ids, record lookup, workloads, best per device with ids,
// and the best record of one config whatever its key order.
#include <gtest/gtest.h>

#include "tests/unit/tuner/record_store_test_util.h"
#include "tuner/record_store.h"

namespace tunefarm::tuner {
namespace {

using testing::FreshDbPath;
using testing::SampleRecord;

TEST(RecordStoreDashboardTest, JobRecordsCarryIncreasingIds) {
  auto store = RecordStore::Open(FreshDbPath("dash_ids"));
  ASSERT_TRUE(store.ok()) << store.status();
  Record other = SampleRecord({3.0});
  other.job_id = "job-2";
  ASSERT_TRUE((*store)->InsertBatch({SampleRecord({1.0}), other, SampleRecord({2.0})}).ok());
  auto rows = (*store)->JobRecordsWithIds("job-1");
  ASSERT_TRUE(rows.ok()) << rows.status();
  ASSERT_EQ(rows->size(), 2u);
  EXPECT_LT((*rows)[0].id, (*rows)[1].id);
  EXPECT_EQ((*rows)[1].record.repeat_seconds, std::vector<double>{2.0});

  auto one = (*store)->RecordById((*rows)[1].id);
  ASSERT_TRUE(one.ok()) << one.status();
  EXPECT_EQ(one->record.repeat_seconds, std::vector<double>{2.0});
  EXPECT_EQ((*store)->RecordById(999).status().code(), absl::StatusCode::kNotFound);
}

TEST(RecordStoreDashboardTest, WorkloadsListKeysAndFlops) {
  auto store = RecordStore::Open(FreshDbPath("dash_workloads"));
  ASSERT_TRUE(store.ok()) << store.status();
  auto empty = (*store)->Workloads();
  ASSERT_TRUE(empty.ok());
  EXPECT_TRUE(empty->empty());
  ASSERT_TRUE((*store)->Insert(SampleRecord({1.0})).ok());
  ASSERT_TRUE((*store)->PutWorkload("conv:1", 5e6).ok());
  auto all = (*store)->Workloads();
  ASSERT_TRUE(all.ok()) << all.status();
  ASSERT_EQ(all->size(), 2u);
  EXPECT_EQ((*all)[0].key, "conv:1");
  EXPECT_EQ((*all)[0].flops, 5e6);
  EXPECT_EQ((*all)[1].key, "matmul:64,64,64:float32");
  EXPECT_FALSE((*all)[1].flops.has_value());
}

TEST(RecordStoreDashboardTest, BestPerDeviceWithIdsPicksEachPairsFastest) {
  auto store = RecordStore::Open(FreshDbPath("dash_best"));
  ASSERT_TRUE(store.ok()) << store.status();
  Record slow = SampleRecord({5.0});
  Record fast = SampleRecord({1.0});
  Record failed = SampleRecord({0.1}, ErrorKind::kWrongAnswer);
  Record other_device = SampleRecord({3.0});
  other_device.device_key = "rasp4b";
  Record other_device_slow = other_device;
  other_device_slow.repeat_seconds = {4.0};
  ASSERT_TRUE((*store)->InsertBatch({slow, fast, failed, other_device_slow, other_device}).ok());
  auto best = (*store)->BestPerDeviceWithIds("matmul:64,64,64:float32");
  ASSERT_TRUE(best.ok()) << best.status();
  ASSERT_EQ(best->size(), 2u);
  EXPECT_EQ((*best)[0].record.device_key, "epyc-2c");
  EXPECT_EQ((*best)[0].record.repeat_seconds, std::vector<double>{1.0});
  EXPECT_EQ((*best)[1].record.device_key, "rasp4b");
  EXPECT_EQ((*best)[1].record.repeat_seconds, std::vector<double>{3.0});
  auto by_id = (*store)->RecordById((*best)[1].id);
  ASSERT_TRUE(by_id.ok());
  EXPECT_EQ(by_id->record, other_device);
}

TEST(RecordStoreDashboardTest, BestWithConfigIgnoresKeyOrder) {
  auto store = RecordStore::Open(FreshDbPath("dash_config"));
  ASSERT_TRUE(store.ok()) << store.status();
  Record other_config = SampleRecord({0.5});
  other_config.config_json = R"({"tile_x":[2,32],"unroll":0})";
  ASSERT_TRUE((*store)->InsertBatch({SampleRecord({2.0}), SampleRecord({1.5}), other_config}).ok());
  BestQuery q{"matmul:64,64,64:float32", "llvm", "epyc-2c", std::nullopt};
  auto found = (*store)->BestWithConfig(q, R"({"unroll":1,"tile_x":[4,16]})");
  ASSERT_TRUE(found.ok()) << found.status();
  ASSERT_TRUE(found->has_value());
  EXPECT_EQ((*found)->record.repeat_seconds, std::vector<double>{1.5});
  auto none = (*store)->BestWithConfig(q, R"({"unroll":0,"tile_x":[4,16]})");
  ASSERT_TRUE(none.ok());
  EXPECT_FALSE(none->has_value());
}

}  // namespace
}  // namespace tunefarm::tuner
