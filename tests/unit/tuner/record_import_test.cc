#include "tuner/record_import.h"

#include <gtest/gtest.h>
#include <sstream>
#include <string>

#include "tests/unit/tuner/record_store_test_util.h"
#include "tuner/record_json.h"
#include "tuner/record_store.h"

namespace tunefarm::tuner {
namespace {

using testing::FreshDbPath;
using testing::SampleRecord;

std::string Lines(int n) {
  std::string text;
  for (int i = 0; i < n; ++i) {
    Record r = SampleRecord({0.001 * (i + 1)});
    r.job_id = "import-" + std::to_string(i);
    text += RecordToJsonLine(r) + "\n";
  }
  return text;
}

absl::StatusOr<int64_t> StoreAll(RecordImport& import) {
  for (;;) {
    absl::StatusOr<bool> done = import.StoreNextBatch();
    if (!done.ok()) return done.status();
    if (*done) return import.stored();
  }
}

TEST(RecordImportTest, PartsCutInsideLinesAreJoined) {
  auto store = RecordStore::Open(FreshDbPath("import_parts"));
  ASSERT_TRUE(store.ok()) << store.status();
  const std::string text = Lines(5);
  auto import = RecordImport::Begin(**store);
  ASSERT_TRUE(import.ok()) << import.status();
  for (size_t pos = 0; pos < text.size(); pos += 13) {
    ASSERT_TRUE((*import)->Add(std::string_view(text).substr(pos, 13)).ok());
  }
  ASSERT_TRUE((*import)->Finish().ok());
  EXPECT_EQ((*import)->staged(), 5);
  EXPECT_EQ(*(*store)->RecordCount(), 0);  // staged only
  ASSERT_EQ(*StoreAll(**import), 5);
  std::ostringstream out;
  ASSERT_TRUE((*store)->ExportJsonLines(out).ok());
  EXPECT_EQ(out.str(), text);
}

TEST(RecordImportTest, LastLineWithoutNewlineIsStagedAtFinish) {
  auto store = RecordStore::Open(FreshDbPath("import_no_newline"));
  ASSERT_TRUE(store.ok()) << store.status();
  std::string text = Lines(2);
  text.pop_back();
  auto import = RecordImport::Begin(**store);
  ASSERT_TRUE(import.ok());
  ASSERT_TRUE((*import)->Add(text).ok());
  EXPECT_EQ((*import)->staged(), 1);
  ASSERT_TRUE((*import)->Finish().ok());
  EXPECT_EQ(*StoreAll(**import), 2);
}

TEST(RecordImportTest, DroppedOrFailedImportStoresNothing) {
  auto store = RecordStore::Open(FreshDbPath("import_dropped"));
  ASSERT_TRUE(store.ok()) << store.status();
  {
    auto import = RecordImport::Begin(**store);
    ASSERT_TRUE(import.ok());
    ASSERT_TRUE((*import)->Add(Lines(3)).ok());
  }  // never finished: the client went away
  {
    auto import = RecordImport::Begin(**store);
    ASSERT_TRUE(import.ok());
    absl::Status bad = (*import)->Add(Lines(2) + "{\"workload\": 1}\n");
    EXPECT_EQ(bad.code(), absl::StatusCode::kInvalidArgument);
    EXPECT_NE(bad.message().find("line 3"), std::string::npos) << bad.message();
  }
  EXPECT_EQ(*(*store)->RecordCount(), 0);
  // Storing before the end is a programming error, not a partial import.
  auto import = RecordImport::Begin(**store);
  ASSERT_TRUE(import.ok());
  ASSERT_TRUE((*import)->Add(Lines(1)).ok());
  EXPECT_EQ((*import)->StoreNextBatch().status().code(), absl::StatusCode::kFailedPrecondition);
}

TEST(RecordImportTest, LineWithoutEndIsRefusedAtTheLimit) {
  auto store = RecordStore::Open(FreshDbPath("import_long_line"));
  ASSERT_TRUE(store.ok()) << store.status();
  auto import = RecordImport::Begin(**store);
  ASSERT_TRUE(import.ok());
  const std::string part(RecordImport::kMaxLineBytes / 4, ' ');
  absl::Status s;
  for (int i = 0; i < 5 && s.ok(); ++i) s = (*import)->Add(part);
  EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_NE(s.message().find("longer than"), std::string::npos) << s.message();
}

TEST(RecordImportTest, OtherWritersGetTheDatabaseBetweenBatches) {
  const std::string path = FreshDbPath("import_batches");
  RecordStoreOptions impatient;
  impatient.busy_timeout_ms = 50;  // a writer that would fail behind one long transaction
  auto store = RecordStore::Open(path);
  auto job = RecordStore::Open(path, impatient);
  ASSERT_TRUE(store.ok() && job.ok());
  const int64_t n = RecordImport::kBatchRecords * 2 + 7;
  auto import = RecordImport::Begin(**store);
  ASSERT_TRUE(import.ok());
  ASSERT_TRUE((*import)->Add(Lines(static_cast<int>(n))).ok());
  ASSERT_TRUE((*import)->Finish().ok());
  int batches = 0;
  for (;;) {
    absl::StatusOr<bool> done = (*import)->StoreNextBatch();
    ASSERT_TRUE(done.ok()) << done.status();
    ++batches;
    // A job's result between two batches is stored at once.
    ASSERT_TRUE((*job)->Insert(SampleRecord({1.0})).ok());
    if (*done) break;
  }
  EXPECT_EQ(batches, 3);
  EXPECT_EQ((*import)->stored(), n);
  EXPECT_EQ(*(*store)->RecordCount(), n + batches);
}

}  // namespace
}  // namespace tunefarm::tuner
