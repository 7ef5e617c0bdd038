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
