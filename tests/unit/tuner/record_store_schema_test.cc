#include "tuner/record_store_schema.h"

#include <gtest/gtest.h>

#include "absl/strings/str_cat.h"
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
  auto warm = (*store)->TaskRecords("matmul:8,8,8:float32", "llvm", "dev", CacheFlush::kNone);
  ASSERT_TRUE(warm.ok()) << warm.status();
  ASSERT_EQ(warm->size(), 1u);
  EXPECT_EQ(warm->front().cache_flush, CacheFlush::kNone);
  for (CacheFlush flushed : {CacheFlush::kAll, CacheFlush::kWeights}) {
    auto cold = (*store)->TaskRecords("matmul:8,8,8:float32", "llvm", "dev", flushed);
    ASSERT_TRUE(cold.ok());
    EXPECT_TRUE(cold->empty());
  }
}

// Version 7 said cold_cache = 1 for a record timed with every cache flushed before each call.
TEST(RecordStoreSchemaTest, ColdRecordsOfVersion7WereTimedWithEveryCacheFlushed) {
  std::string path = FreshDbPath("migrate_cache_flush");
  {
    auto db = SqliteDb::Open(path);
    ASSERT_TRUE(db.ok());
    ASSERT_TRUE(MigrateSchema(*db, 7).ok());
    for (int cold : {0, 1}) {
      ASSERT_TRUE(
          db->Exec(absl::StrCat("INSERT INTO records (workload_key, target, device_key, "
                                "config_json, repeat_seconds_json, median_seconds, error_kind, "
                                "error_message, build_seconds, measured_by, timestamp_ms, "
                                "tunefarm_version, job_id, cold_cache) VALUES "
                                "('matmul:8,8,8:float32', 'llvm', 'dev', '{}', '[0.5]', 0.5, 'ok', "
                                "'', 0, 'local', 1, 'v', '', ",
                                cold, ")"))
              .ok());
    }
  }
  auto store = RecordStore::Open(path);
  ASSERT_TRUE(store.ok()) << store.status();
  for (CacheFlush flush : {CacheFlush::kNone, CacheFlush::kAll}) {
    auto rows = (*store)->TaskRecords("matmul:8,8,8:float32", "llvm", "dev", flush);
    ASSERT_TRUE(rows.ok()) << rows.status();
    ASSERT_EQ(rows->size(), 1u);
    EXPECT_EQ(rows->front().cache_flush, flush);
  }
  auto weights = (*store)->TaskRecords("matmul:8,8,8:float32", "llvm", "dev", CacheFlush::kWeights);
  ASSERT_TRUE(weights.ok());
  EXPECT_TRUE(weights->empty());
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
