// One tracker per database: the lock excludes a second holder, names the database and the pid,
// and is free again once released.
#include "tracker/database_lock.h"

#include <filesystem>
#include <gtest/gtest.h>
#include <string>
#include <unistd.h>

namespace tunefarm::tracker {
namespace {

std::filesystem::path TempDir() {
  std::filesystem::path dir =
      std::filesystem::temp_directory_path() / ("tf_db_lock_" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  return dir;
}

TEST(DatabaseLockTest, ASecondHolderIsRefusedUntilTheFirstReleases) {
  const std::string db = (TempDir() / "records.db").string();
  auto first = DatabaseLock::Acquire(db);
  ASSERT_TRUE(first.ok()) << first.status();
  EXPECT_TRUE(first->held());
  EXPECT_EQ(first->lock_path(), std::filesystem::weakly_canonical(db).string() + ".lock");

  auto second = DatabaseLock::Acquire(db);
  ASSERT_FALSE(second.ok());
  EXPECT_EQ(second.status().code(), absl::StatusCode::kFailedPrecondition);
  const std::string message(second.status().message());
  EXPECT_NE(message.find(db), std::string::npos) << message;
  EXPECT_NE(message.find("pid " + std::to_string(::getpid())), std::string::npos) << message;

  // Moving keeps one holder; destroying it frees the database.
  DatabaseLock moved = std::move(*first);
  EXPECT_FALSE(first->held());
  EXPECT_FALSE(DatabaseLock::Acquire(db).ok());
  moved = DatabaseLock();
  EXPECT_TRUE(DatabaseLock::Acquire(db).ok());
}

TEST(DatabaseLockTest, TwoSpellingsOfOneDatabaseLockOneFile) {
  std::filesystem::path dir = TempDir();
  std::filesystem::create_directories(dir / "sub");
  auto first = DatabaseLock::Acquire((dir / "spelled.db").string());
  ASSERT_TRUE(first.ok()) << first.status();
  auto second = DatabaseLock::Acquire((dir / "sub" / ".." / "spelled.db").string());
  EXPECT_EQ(second.status().code(), absl::StatusCode::kFailedPrecondition) << second.status();
}

TEST(DatabaseLockTest, InMemoryDatabasesNeedNoLock) {
  auto a = DatabaseLock::Acquire(":memory:");
  auto b = DatabaseLock::Acquire(":memory:");
  ASSERT_TRUE(a.ok() && b.ok());
  EXPECT_FALSE(a->held());
}

TEST(DatabaseLockTest, AMissingDirectoryIsAnErrorNamingTheLockFile) {
  auto lock = DatabaseLock::Acquire("/nonexistent-dir/records.db");
  ASSERT_FALSE(lock.ok());
  EXPECT_NE(lock.status().message().find("/nonexistent-dir/records.db.lock"), std::string::npos)
      << lock.status();
}

}  // namespace
}  // namespace tunefarm::tracker
