// The worker's artifact cache: bytes are checked against their hash, a hash-only lookup of an
// unknown artifact names it, beyond the budget the cached outputs go first and then the least
// recently used libraries (never the lease's own), and a restarted worker finds what an earlier
// one cached.
#include "rpc_server/artifact_cache.h"

#include <filesystem>
#include <fstream>
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <string>
#include <unistd.h>
#include <vector>

#include "absl/strings/str_cat.h"
#include "runtime/measure/sha256.h"

namespace tunefarm::rpc_server {
namespace {

using ::testing::HasSubstr;

// A new directory for one test, removed when the test ends.
class ArtifactCacheTest : public ::testing::Test {
 protected:
  void TearDown() override {
    for (const std::string& dir : dirs_) std::filesystem::remove_all(dir);
  }
  std::string FreshDir(const std::string& name) {
    std::string dir = absl::StrCat(::testing::TempDir(), "/artifact_cache_", getpid(), "_", name);
    std::filesystem::remove_all(dir);
    dirs_.push_back(dir);
    return dir;
  }

 private:
  std::vector<std::string> dirs_;
};

TEST_F(ArtifactCacheTest, PutChecksTheHashAndGetFindsTheFile) {
  absl::StatusOr<std::unique_ptr<ArtifactCache>> cache =
      ArtifactCache::Open(FreshDir("put"), 1 << 20);
  ASSERT_TRUE(cache.ok()) << cache.status();
  const std::string bytes = "library bytes";
  const std::string sha = runtime::measure::Sha256Hex(bytes);

  absl::Status bad = (*cache)->Put(sha, "other bytes").status();
  EXPECT_TRUE(absl::IsInvalidArgument(bad)) << bad;
  EXPECT_THAT(bad.message(), HasSubstr(runtime::measure::Sha256Hex("other bytes")));
  EXPECT_FALSE((*cache)->Contains(sha));

  absl::StatusOr<std::string> path = (*cache)->Put(sha, bytes);
  ASSERT_TRUE(path.ok()) << path.status();
  EXPECT_TRUE(std::filesystem::exists(*path));
  EXPECT_EQ(std::filesystem::file_size(*path), bytes.size());
  absl::StatusOr<std::string> again = (*cache)->Get(sha);
  ASSERT_TRUE(again.ok()) << again.status();
  EXPECT_EQ(*again, *path);
  EXPECT_EQ((*cache)->total_bytes(), static_cast<int64_t>(bytes.size()));

  const std::string unknown = runtime::measure::Sha256Hex("never sent");
  absl::Status missing = (*cache)->Get(unknown).status();
  EXPECT_TRUE(absl::IsNotFound(missing));
  EXPECT_EQ(missing.message(), absl::StrCat("artifact ", unknown, " missing on worker"));
  EXPECT_TRUE(absl::IsInvalidArgument((*cache)->Put("../escape", bytes).status()));
}

TEST_F(ArtifactCacheTest, EvictsLeastRecentlyUsedButKeepsTheLeasesOwn) {
  absl::StatusOr<std::unique_ptr<ArtifactCache>> cache = ArtifactCache::Open(FreshDir("lru"), 250);
  ASSERT_TRUE(cache.ok()) << cache.status();
  const std::string a(100, 'a'), b(100, 'b'), c(100, 'c');
  ASSERT_TRUE((*cache)->Put(runtime::measure::Sha256Hex(a), a).ok());
  ASSERT_TRUE((*cache)->Put(runtime::measure::Sha256Hex(b), b).ok());
  ASSERT_TRUE((*cache)->Get(runtime::measure::Sha256Hex(a)).ok());  // a is now more recent than b
  ASSERT_TRUE((*cache)->Put(runtime::measure::Sha256Hex(c), c).ok());
  (*cache)->EvictToFit({runtime::measure::Sha256Hex(c)});
  EXPECT_TRUE((*cache)->Contains(runtime::measure::Sha256Hex(a)));
  EXPECT_FALSE((*cache)->Contains(runtime::measure::Sha256Hex(b)));
  EXPECT_TRUE((*cache)->Contains(runtime::measure::Sha256Hex(c)));
  EXPECT_EQ((*cache)->total_bytes(), 200);

  // The measure child's side file counts towards its library's size, and goes first.
  absl::StatusOr<std::string> a_path = (*cache)->Get(runtime::measure::Sha256Hex(a));
  ASSERT_TRUE(a_path.ok());
  const std::string side = *a_path + ".expected-1f";
  { std::ofstream(side) << std::string(60, 'x'); }
  EXPECT_EQ((*cache)->total_bytes(), 260);                          // over the 250 budget
  ASSERT_TRUE((*cache)->Get(runtime::measure::Sha256Hex(c)).ok());  // a is now the oldest
  (*cache)->EvictToFit({});
  EXPECT_FALSE(std::filesystem::exists(side));
  EXPECT_TRUE((*cache)->Contains(runtime::measure::Sha256Hex(a)));
  EXPECT_EQ((*cache)->total_bytes(), 200);

  // Over budget with only kept files: they all stay.
  const std::string d(300, 'd');
  ASSERT_TRUE((*cache)->Put(runtime::measure::Sha256Hex(d), d).ok());
  (*cache)->EvictToFit({runtime::measure::Sha256Hex(d)});
  EXPECT_TRUE((*cache)->Contains(runtime::measure::Sha256Hex(d)));
  EXPECT_EQ((*cache)->size(), 1u);
  EXPECT_EQ(std::distance(std::filesystem::directory_iterator((*cache)->dir()),
                          std::filesystem::directory_iterator()),
            1);
}

// A reference's cached outputs (megabytes, recomputed by the next measurement) go before any
// library (kilobytes, and sent once per connection: a lease naming an evicted one fails).
TEST_F(ArtifactCacheTest, CachedOutputsGoBeforeAnyLibrary) {
  absl::StatusOr<std::unique_ptr<ArtifactCache>> cache =
      ArtifactCache::Open(FreshDir("sides"), 400);
  ASSERT_TRUE(cache.ok()) << cache.status();
  std::vector<std::string> paths;
  for (char x : {'a', 'b', 'c'}) {
    const std::string bytes(100, x);
    absl::StatusOr<std::string> path = (*cache)->Put(runtime::measure::Sha256Hex(bytes), bytes);
    ASSERT_TRUE(path.ok()) << path.status();
    paths.push_back(*path);
  }
  // Beside c, the most recently used: the older libraries still go after it.
  { std::ofstream(paths[2] + ".expected-2a") << std::string(150, 'x'); }
  (*cache)->EvictToFit({});
  EXPECT_FALSE(std::filesystem::exists(paths[2] + ".expected-2a"));
  EXPECT_EQ((*cache)->size(), 3u);
  EXPECT_EQ((*cache)->total_bytes(), 300);

  // Among side files, the least recently used library's go first, and only what the budget needs.
  { std::ofstream(paths[0] + ".expected-3b") << std::string(80, 'x'); }
  { std::ofstream(paths[1] + ".expected-4c") << std::string(80, 'x'); }
  (*cache)->EvictToFit({});
  EXPECT_FALSE(std::filesystem::exists(paths[0] + ".expected-3b"));
  EXPECT_TRUE(std::filesystem::exists(paths[1] + ".expected-4c"));
  EXPECT_EQ((*cache)->size(), 3u);
  EXPECT_EQ((*cache)->total_bytes(), 380);
}

TEST_F(ArtifactCacheTest, ReopeningFindsEarlierArtifacts) {
  const std::string dir = FreshDir("reopen");
  const std::string bytes = "kept across restarts";
  {
    absl::StatusOr<std::unique_ptr<ArtifactCache>> cache = ArtifactCache::Open(dir, 1 << 20);
    ASSERT_TRUE(cache.ok()) << cache.status();
    ASSERT_TRUE((*cache)->Put(runtime::measure::Sha256Hex(bytes), bytes).ok());
  }
  absl::StatusOr<std::unique_ptr<ArtifactCache>> cache = ArtifactCache::Open(dir, 1 << 20);
  ASSERT_TRUE(cache.ok()) << cache.status();
  EXPECT_TRUE((*cache)->Get(runtime::measure::Sha256Hex(bytes)).ok());
  EXPECT_EQ((*cache)->total_bytes(), static_cast<int64_t>(bytes.size()));
}

}  // namespace
}  // namespace tunefarm::rpc_server
