#include "tools/commands/records_command.h"

#include <filesystem>
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <sstream>

#include "tests/testing/files.h"
#include "tuner/record_store.h"

namespace tunefarm::tools {
namespace {

using ::testing::HasSubstr;

std::string FreshDir(const std::string& name) {
  std::filesystem::path dir = std::filesystem::path(::testing::TempDir()) / ("tf_rc_" + name);
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  return dir.string();
}

tuner::Record Sample(double seconds, tuner::ErrorKind kind = tuner::ErrorKind::kOk) {
  tuner::Record r;
  r.workload_key = "matmul:8,8,8:float32";
  r.target = "llvm";
  r.device_key = "d";
  r.config_json = R"({"x":1})";
  if (kind == tuner::ErrorKind::kOk) r.repeat_seconds = {seconds};
  r.error_kind = kind;
  r.measured_by = "local";
  r.timestamp_ms = 1;
  r.tunefarm_version = "0.4.0";
  return r;
}

TEST(RecordsCommandTest, ExportThenImportIntoAnotherDatabaseIsIdentical) {
  std::string dir = FreshDir("roundtrip");
  {
    auto store = tuner::RecordStore::Open(dir + "/a.db");
    ASSERT_TRUE(store.ok());
    ASSERT_TRUE(
        (*store)
            ->InsertBatch({Sample(1.0), Sample(0, tuner::ErrorKind::kWrongAnswer), Sample(0.5)})
            .ok());
  }
  std::istringstream no_input;
  std::ostringstream out, err;
  ASSERT_EQ(RunRecordsCommand({"export", dir + "/a.db", dir + "/a.jsonl"}, no_input, out, err), 0)
      << err.str();
  EXPECT_THAT(err.str(), HasSubstr("exported 3 records"));

  std::ostringstream out2, err2;
  ASSERT_EQ(RunRecordsCommand({"import", dir + "/b.db", dir + "/a.jsonl"}, no_input, out2, err2), 0)
      << err2.str();
  EXPECT_THAT(out2.str(), HasSubstr("imported 3 records"));

  std::ostringstream again, err3;
  ASSERT_EQ(RunRecordsCommand({"export", dir + "/b.db", "-"}, no_input, again, err3), 0);
  EXPECT_EQ(again.str(), *fixtures::ReadFile(dir + "/a.jsonl"));
}

TEST(RecordsCommandTest, ImportOfABadLineNamesItAndStoresNothing) {
  std::string dir = FreshDir("bad_line");
  std::ostringstream out, err, first_out, first_err;
  std::istringstream none;
  // One good record already stored must survive the failed import.
  {
    auto store = tuner::RecordStore::Open(dir + "/t.db");
    ASSERT_TRUE(store.ok());
    ASSERT_TRUE((*store)->Insert(Sample(1.0)).ok());
  }
  ASSERT_EQ(RunRecordsCommand({"export", dir + "/t.db", "-"}, none, first_out, first_err), 0);
  std::istringstream in(first_out.str() + "{not json}\n");
  EXPECT_EQ(RunRecordsCommand({"import", dir + "/t.db", "-"}, in, out, err), 1);
  EXPECT_THAT(err.str(), HasSubstr("line 2"));
  EXPECT_THAT(err.str(), HasSubstr("nothing was imported"));
  auto store = tuner::RecordStore::Open(dir + "/t.db");
  ASSERT_TRUE(store.ok());
  EXPECT_EQ(*(*store)->RecordCount(), 1);
}

TEST(RecordsCommandTest, ExportOfAMissingDatabaseIsAnErrorAndCreatesNothing) {
  std::string dir = FreshDir("missing");
  std::istringstream none;
  std::ostringstream out, err;
  EXPECT_EQ(RunRecordsCommand({"export", dir + "/nope.db", "-"}, none, out, err),
            2);  // a usage error: an input refused before anything ran
  EXPECT_THAT(err.str(), HasSubstr("no record database at"));
  EXPECT_FALSE(std::filesystem::exists(dir + "/nope.db"));
}

TEST(RecordsCommandTest, UnknownActionIsAUsageError) {
  std::istringstream none;
  std::ostringstream out, err;
  EXPECT_EQ(RunRecordsCommand({"merge", "x.db", "-"}, none, out, err), 2);
  EXPECT_THAT(err.str(), HasSubstr("unknown action 'merge'"));
}

}  // namespace
}  // namespace tunefarm::tools
