// One tracker per database: a second TrackerServer on a database in use fails to start, names
// the database, and leaves the first one serving; once the first is gone a new one starts.
#include <filesystem>
#include <gtest/gtest.h>
#include <string>
#include <unistd.h>

#include "tracker/service/tracker_server.h"

namespace tunefarm::tracker {
namespace {

TrackerServerOptions OptionsFor(const std::string& db_path) {
  TrackerServerOptions options;
  options.listen = "127.0.0.1:0";
  options.db_path = db_path;
  options.tick_interval_ms = 50;
  options.heartbeat_interval_ms = 500;
  return options;
}

TEST(TrackerServerDbLockTest, ASecondTrackerOnOneDatabaseFailsToStart) {
  std::filesystem::path dir =
      std::filesystem::temp_directory_path() / ("tf_service_lock_" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  const std::string db = (dir / "shared.db").string();
  std::filesystem::remove(db);

  auto first = TrackerServer::Start(OptionsFor(db));
  ASSERT_TRUE(first.ok()) << first.status();
  auto second = TrackerServer::Start(OptionsFor(db));
  ASSERT_FALSE(second.ok());
  EXPECT_EQ(second.status().code(), absl::StatusCode::kFailedPrecondition) << second.status();
  const std::string message(second.status().message());
  EXPECT_NE(message.find(db), std::string::npos) << message;
  EXPECT_NE(message.find("another tracker"), std::string::npos) << message;
  EXPECT_NE(message.find("pid " + std::to_string(::getpid())), std::string::npos) << message;
  EXPECT_EQ(message.find('\n'), std::string::npos) << message;  // one line on the command line

  // Another database is no conflict, and the first tracker keeps its own.
  auto other = TrackerServer::Start(OptionsFor((dir / "other.db").string()));
  EXPECT_TRUE(other.ok()) << other.status();
  EXPECT_TRUE((*first)->jobs().List(/*include_finished=*/true, /*limit=*/10).empty());

  first->reset();  // the lock goes with the tracker
  auto third = TrackerServer::Start(OptionsFor(db));
  EXPECT_TRUE(third.ok()) << third.status();
}

}  // namespace
}  // namespace tunefarm::tracker
