#include "tuner/record_store_schema.h"

#include <gtest/gtest.h>

#include "tests/unit/tuner/record_store_test_util.h"
#include "tuner/record_store.h"

namespace tunefarm::tuner {
namespace {

using testing::FreshDbPath;

TEST(RecordStoreSchemaTest, CreatesLatestSchemaAndReopens) {
  std::string path = FreshDbPath("create");
  {
    auto store = RecordStore::Open(path);
    ASSERT_TRUE(store.ok()) << store.status();
    EXPECT_EQ(*(*store)->SchemaVersion(), LatestSchemaVersion());
    ASSERT_TRUE((*store)->Insert(testing::SampleRecord({1.0})).ok());
  }
  auto again = RecordStore::Open(path);
  ASSERT_TRUE(again.ok()) << again.status();
  EXPECT_EQ(*(*again)->SchemaVersion(), LatestSchemaVersion());
  EXPECT_EQ(*(*again)->RecordCount(), 1);

  auto db = SqliteDb::Open(path);
  ASSERT_TRUE(db.ok());
  EXPECT_EQ(*db->QueryText("PRAGMA journal_mode"), "wal");
  for (const char* table : {"workloads", "jobs", "records", "workers"}) {
    EXPECT_EQ(
        *db->QueryInt(std::string("SELECT count(*) FROM sqlite_master WHERE name='") + table + "'"),
        1)
        << table;
  }
}

TEST(RecordStoreSchemaTest, MigratesAnOlderFileInOrder) {
  std::string path = FreshDbPath("migrate");
  {
    auto db = SqliteDb::Open(path);
    ASSERT_TRUE(db.ok());
    ASSERT_TRUE(MigrateSchema(*db, 1).ok());
    EXPECT_EQ(*db->QueryInt("PRAGMA user_version"), 1);
    EXPECT_EQ(*db->QueryInt("SELECT count(*) FROM sqlite_master WHERE name='records_best'"), 0);
  }
  auto store = RecordStore::Open(path);
  ASSERT_TRUE(store.ok()) << store.status();
  EXPECT_EQ(*(*store)->SchemaVersion(), LatestSchemaVersion());
  auto db = SqliteDb::Open(path);
  ASSERT_TRUE(db.ok());
  EXPECT_EQ(*db->QueryInt("SELECT count(*) FROM sqlite_master WHERE name='records_best'"), 1);
}

TEST(RecordStoreSchemaTest, RecordsOfAnOlderFileWereTimedFromWarmCaches) {
  std::string path = FreshDbPath("migrate_cold_cache");
  {
    auto db = SqliteDb::Open(path);
    ASSERT_TRUE(db.ok());
    ASSERT_TRUE(MigrateSchema(*db, 6).ok());
    ASSERT_TRUE(db->Exec("INSERT INTO records (workload_key, target, device_key, config_json, "
                         "repeat_seconds_json, median_seconds, error_kind, error_message, "
                         "build_seconds, measured_by, timestamp_ms, tunefarm_version, job_id) "
                         "VALUES ('matmul:8,8,8:float32', 'llvm', 'dev', '{}', '[0.5]', 0.5, "
                         "'ok', '', 0, 'local', 1, 'v', '')")
                    .ok());
  }
  auto store = RecordStore::Open(path);
  ASSERT_TRUE(store.ok()) << store.status();
  auto warm = (*store)->TaskRecords("matmul:8,8,8:float32", "llvm", "dev", false);
  ASSERT_TRUE(warm.ok()) << warm.status();
  ASSERT_EQ(warm->size(), 1u);
  EXPECT_FALSE(warm->front().cold_cache);
  auto cold = (*store)->TaskRecords("matmul:8,8,8:float32", "llvm", "dev", true);
  ASSERT_TRUE(cold.ok());
  EXPECT_TRUE(cold->empty());
}

TEST(RecordStoreSchemaTest, RefusesANewerSchemaAndLeavesItAlone) {
  std::string path = FreshDbPath("newer");
  int newer = LatestSchemaVersion() + 1;
  {
    auto db = SqliteDb::Open(path);
    ASSERT_TRUE(db.ok());
    ASSERT_TRUE(db->Exec("PRAGMA user_version = " + std::to_string(newer)).ok());
  }
  auto store = RecordStore::Open(path);
  ASSERT_FALSE(store.ok());
  EXPECT_EQ(store.status().code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_NE(store.status().message().find("upgrade tunefarm"), std::string::npos);
  auto db = SqliteDb::Open(path);
  ASSERT_TRUE(db.ok());
  EXPECT_EQ(*db->QueryInt("PRAGMA user_version"), newer);
  EXPECT_EQ(*db->QueryInt("SELECT count(*) FROM sqlite_master"), 0);
}

}  // namespace
}  // namespace tunefarm::tuner
