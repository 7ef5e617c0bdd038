#include <gtest/gtest.h>
#include <sstream>

#include "tests/unit/tuner/record_store_test_util.h"
#include "tuner/record_store.h"

namespace tunefarm::tuner {
namespace {

using testing::FreshDbPath;
using testing::SampleRecord;

std::string Export(RecordStore& store) {
  std::ostringstream out;
  EXPECT_TRUE(store.ExportJsonLines(out).ok());
  return out.str();
}

TEST(RecordStoreJsonlTest, ImportOfExportIsByteIdentical) {
  auto source = RecordStore::Open(FreshDbPath("export_src"));
  ASSERT_TRUE(source.ok()) << source.status();
  Record odd = SampleRecord({0.1, 1e-9, 3.0000000000000004}, ErrorKind::kRuntimeError);
  odd.error_message = "segfault at \"0x0\"\nline two \xc3\xa9";
  odd.job_id = "";
  odd.cache_flush = CacheFlush::kWeights;
  odd.canary_ratio = 1.375;  // how far to trust it travels with it
  odd.noisy = true;
  odd.emulated = true;
  ASSERT_TRUE((*source)->InsertBatch({SampleRecord({0.5, 0.25}), odd, SampleRecord({})}).ok());
  std::string exported = Export(**source);
  EXPECT_EQ(std::count(exported.begin(), exported.end(), '\n'), 3);
  EXPECT_NE(exported.find(R"("spread":1.0,"canary_ratio":1.0,"noisy":false,"emulated":false)"),
            std::string::npos)
      << exported;  // {0.5, 0.25}: (0.5 - 0.25) / 0.25
  EXPECT_NE(exported.find(R"("canary_ratio":1.375,"noisy":true,"emulated":true)"),
            std::string::npos)
      << exported;

  auto dest = RecordStore::Open(FreshDbPath("export_dst"));
  ASSERT_TRUE(dest.ok()) << dest.status();
  std::istringstream in(exported);
  auto imported = (*dest)->ImportJsonLines(in);
  ASSERT_TRUE(imported.ok()) << imported.status();
  EXPECT_EQ(*imported, 3);
  EXPECT_EQ(Export(**dest), exported);
  auto history = (*dest)->JobHistory("");
  ASSERT_TRUE(history.ok());
  ASSERT_EQ(history->size(), 1u);
  EXPECT_EQ((*history)[0], odd);
}

TEST(RecordStoreJsonlTest, BadLineNamesItsNumberAndStoresNothing) {
  auto store = RecordStore::Open(FreshDbPath("bad_import"));
  ASSERT_TRUE(store.ok()) << store.status();
  ASSERT_TRUE((*store)->Insert(SampleRecord({1.0})).ok());
  std::string before = Export(**store);

  std::string good = before.substr(0, before.size() - 1);
  std::string missing_field = good;
  missing_field.replace(missing_field.find("\"measured_by\""), 13, "\"measured_byX\"");
  // A negative time would be every query's best.
  std::string negative = good;
  negative.replace(negative.find("[1.0]"), 5, "[-0.5]");
  std::string bad_canary = good;
  bad_canary.replace(bad_canary.find("\"canary_ratio\":1.0"), 18, "\"canary_ratio\":-1");
  for (const std::string& bad : {std::string("{oops"), missing_field, negative, bad_canary,
                                 good.substr(0, good.find("\"ok\"")) + "\"exploded\"" +
                                     good.substr(good.find("\"ok\"") + 4)}) {
    std::istringstream in(good + "\n\n" + good + "\n" + bad + "\n" + good + "\n");
    auto result = (*store)->ImportJsonLines(in);
    ASSERT_FALSE(result.ok()) << bad;
    EXPECT_EQ(result.status().code(), absl::StatusCode::kInvalidArgument);
    EXPECT_NE(result.status().message().find("line 4"), std::string::npos)
        << result.status().message();
    EXPECT_EQ(Export(**store), before);
  }
}

// Exports of the version before cache_flush said "cold_cache": true for a record timed with every
// cache flushed; a cache_flush this build does not know is refused by line.
TEST(RecordStoreJsonlTest, OlderColdCacheLinesImportAsEveryCacheFlushed) {
  auto source = RecordStore::Open(FreshDbPath("cold_cache_src"));
  ASSERT_TRUE(source.ok()) << source.status();
  ASSERT_TRUE((*source)->Insert(SampleRecord({1.0})).ok());
  const std::string exported = Export(**source);
  const std::string line = exported.substr(0, exported.size() - 1);
  const size_t at = line.find(R"("cache_flush":"none")");
  ASSERT_NE(at, std::string::npos) << line;
  const std::string older = line.substr(0, at) + R"("cold_cache":true)" +
                            line.substr(at + std::string(R"("cache_flush":"none")").size());

  auto dest = RecordStore::Open(FreshDbPath("cold_cache_dst"));
  ASSERT_TRUE(dest.ok()) << dest.status();
  std::istringstream in(older + "\n");
  ASSERT_TRUE((*dest)->ImportJsonLines(in).ok());
  auto rows = (*dest)->TaskRecords(SampleRecord({1.0}).workload_key, SampleRecord({1.0}).target,
                                   SampleRecord({1.0}).device_key, CacheFlush::kAll);
  ASSERT_TRUE(rows.ok()) << rows.status();
  EXPECT_EQ(rows->size(), 1u);

  const std::string unknown = line.substr(0, at) + R"("cache_flush":"lukewarm")" +
                              line.substr(at + std::string(R"("cache_flush":"none")").size());
  std::istringstream bad(line + "\n" + unknown + "\n");
  auto refused = (*dest)->ImportJsonLines(bad);
  ASSERT_FALSE(refused.ok());
  EXPECT_NE(refused.status().message().find("line 2"), std::string::npos)
      << refused.status().message();
  EXPECT_NE(refused.status().message().find("cache_flush"), std::string::npos)
      << refused.status().message();
  auto count = (*dest)->RecordCount();
  ASSERT_TRUE(count.ok());
  EXPECT_EQ(*count, 1);
}

// Hostile lines from the reliability issue: a config nested 100,000 deep crashed the import
// (recursion printing it) and 20,000 deep was stored, to take gigabytes on every dashboard view;
// a time of 1e400 (beyond a double). Each is refused by line, and nothing is stored.
TEST(RecordStoreJsonlTest, HostileLinesAreRefusedWithoutRecursing) {
  auto store = RecordStore::Open(FreshDbPath("hostile_import"));
  ASSERT_TRUE(store.ok()) << store.status();
  ASSERT_TRUE((*store)->Insert(SampleRecord({1.0})).ok());
  const std::string before = Export(**store);
  const std::string good = before.substr(0, before.size() - 1);
  auto with_config = [&](const std::string& config) {
    const size_t at = good.find("\"config\":") + 9;
    return good.substr(0, at) + config + good.substr(good.find("},\"repeat_seconds\"") + 1);
  };
  const std::string deep = std::string(100'000, '[') + std::string(100'000, ']');
  const std::string twenty_k = std::string(20'000, '[') + std::string(20'000, ']');
  struct Case {
    std::string line, message;
  };
  for (const Case& c :
       {Case{with_config("{\"k\":" + deep + "}"), "nested deeper"},
        Case{with_config("{\"k\":" + twenty_k + "}"), "nested deeper"},
        Case{with_config(R"({"k":{"nested":1}})"), "knob 'k'"},
        Case{with_config(R"({"k":[1,[2]]})"), "knob 'k'"},
        Case{with_config(R"({"k":1.5})"), "knob 'k'"},
        Case{good.substr(0, good.find("[1]")) + "[1e400]" + good.substr(good.find("[1]") + 3),
             "not valid JSON"}}) {
    std::istringstream in(good + "\n" + c.line + "\n");
    auto result = (*store)->ImportJsonLines(in);
    ASSERT_FALSE(result.ok()) << c.line.substr(0, 200);
    EXPECT_EQ(result.status().code(), absl::StatusCode::kInvalidArgument);
    EXPECT_NE(result.status().message().find("line 2"), std::string::npos)
        << result.status().message();
    EXPECT_NE(result.status().message().find(c.message), std::string::npos)
        << result.status().message();
  }
  EXPECT_EQ(Export(**store), before);
}

}  // namespace
}  // namespace tunefarm::tuner
