// Split enumeration counts and policies.
#include "compiler/space/split_knob.h"

#include <chrono>
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <string>

namespace tunefarm::space {
namespace {

using ::testing::HasSubstr;

std::unique_ptr<SplitKnob> MakeOk(const SplitOptions& o) {
  auto k = SplitKnob::Make("s", o);
  EXPECT_TRUE(k.ok()) << k.status();
  return *std::move(k);
}

TEST(SplitKnobTest, CountsAllFactorizations) {
  EXPECT_EQ(MakeOk({.extent = 12, .num_parts = 2})->size(), 6);   // divisors of 12
  EXPECT_EQ(MakeOk({.extent = 12, .num_parts = 3})->size(), 18);  // C(4,2) * C(3,2)
  EXPECT_EQ(MakeOk({.extent = 16, .num_parts = 3})->size(), 15);
  EXPECT_EQ(MakeOk({.extent = 7, .num_parts = 1})->size(), 1);
}

TEST(SplitKnobTest, EveryFactorListMultipliesBackAndOrderIsLexicographic) {
  auto k = MakeOk({.extent = 12, .num_parts = 3});
  for (int64_t i = 0; i < k->size(); ++i) {
    const auto& f = k->FactorsAt(i);
    ASSERT_EQ(f.size(), 3u);
    EXPECT_EQ(f[0] * f[1] * f[2], 12);
    if (i > 0) {
      EXPECT_LT(k->FactorsAt(i - 1), f);
    }
    EXPECT_EQ(*k->IndexOf(k->ValueAt(i)), i);
  }
  EXPECT_EQ(k->FactorsAt(0), (std::vector<int64_t>{1, 1, 12}));
}

TEST(SplitKnobTest, PowerOfTwoKeepsPowerOfTwoInnerParts) {
  auto k = MakeOk({.extent = 12, .num_parts = 2, .policy = SplitPolicy::kPowerOfTwo});
  ASSERT_EQ(k->size(), 3);  // inner 1, 2, 4
  EXPECT_EQ(k->FactorsAt(0), (std::vector<int64_t>{3, 4}));
  EXPECT_EQ(MakeOk({.extent = 64, .num_parts = 2, .policy = SplitPolicy::kPowerOfTwo})->size(), 7);
  EXPECT_EQ(MakeOk({.extent = 24, .num_parts = 3, .policy = SplitPolicy::kPowerOfTwo})->size(),
            10);  // inner pairs (2^a, 2^b) with a + b <= 3
}

TEST(SplitKnobTest, MaxInnermostFilters) {
  auto k = MakeOk({.extent = 12, .num_parts = 2, .max_innermost = 4});
  EXPECT_EQ(k->size(), 4);  // inner 1, 2, 3, 4
  for (int64_t i = 0; i < k->size(); ++i) EXPECT_LE(k->FactorsAt(i).back(), 4);
}

TEST(SplitKnobTest, Candidates) {
  auto k = MakeOk({.extent = 12,
                   .num_parts = 2,
                   .policy = SplitPolicy::kCandidates,
                   .candidates = {{3, 4}, {1, 12}}});
  ASSERT_EQ(k->size(), 2);
  EXPECT_EQ(*k->IndexOf(std::vector<int64_t>{1, 12}), 1);
  EXPECT_FALSE(k->IndexOf(std::vector<int64_t>{2, 6}).ok());
}

TEST(SplitKnobTest, RejectsBadOptions) {
  EXPECT_FALSE(SplitKnob::Make("s", {.extent = 0}).ok());
  EXPECT_FALSE(SplitKnob::Make("s", {.extent = 8, .num_parts = 0}).ok());
  EXPECT_FALSE(SplitKnob::Make("s", {.extent = 8, .num_parts = 9}).ok());
  SplitOptions c{.extent = 8, .num_parts = 2, .policy = SplitPolicy::kCandidates};
  c.candidates = {{2, 3}};
  EXPECT_FALSE(SplitKnob::Make("s", c).ok());  // product 6
  c.candidates = {{8}};
  EXPECT_FALSE(SplitKnob::Make("s", c).ok());  // wrong part count
  c.candidates = {{2, 4}, {2, 4}};
  EXPECT_FALSE(SplitKnob::Make("s", c).ok());  // repeats
  c.candidates = {};
  EXPECT_FALSE(SplitKnob::Make("s", c).ok());  // empty
  auto filtered = SplitKnob::Make("tile", {.extent = 7,
                                           .num_parts = 2,
                                           .policy = SplitPolicy::kCandidates,
                                           .candidates = {{1, 7}},
                                           .max_innermost = 4});
  ASSERT_FALSE(filtered.ok());
  EXPECT_NE(filtered.status().message().find("tile"), absl::string_view::npos);
}

TEST(SplitKnobTest, IndexOfRejectsOtherShapes) {
  auto k = MakeOk({.extent = 8, .num_parts = 2});
  EXPECT_FALSE(k->IndexOf(int64_t{8}).ok());
  EXPECT_FALSE(k->IndexOf(std::string("8")).ok());
  EXPECT_FALSE(k->IndexOf(std::vector<int64_t>{2, 2, 2}).ok());
}

// An extent of 2^61-1 (a prime) cost 35 s of trial division before anything could refuse it.
TEST(SplitKnobTest, HugeExtentIsRefusedBeforeEnumerating) {
  const auto start = std::chrono::steady_clock::now();
  auto k = SplitKnob::Make("tile", {.extent = (int64_t{1} << 61) - 1, .num_parts = 2});
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(1));
  ASSERT_FALSE(k.ok());
  EXPECT_EQ(k.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(std::string(k.status().message()),
              HasSubstr("split knob 'tile': extent 2305843009213693951 is above 4294967296"));
  // Candidates are not enumerated: any extent may take them.
  EXPECT_TRUE(SplitKnob::Make("c", {.extent = int64_t{1} << 40,
                                    .num_parts = 2,
                                    .policy = SplitPolicy::kCandidates,
                                    .candidates = {{int64_t{1} << 20, int64_t{1} << 20}}})
                  .ok());
}

TEST(SplitKnobTest, LargestExtentEnumeratesQuickly) {
  const auto start = std::chrono::steady_clock::now();
  auto k = SplitKnob::Make("s", {.extent = kMaxSplitExtent - 5, .num_parts = 2});  // 2^32 - 5
  ASSERT_TRUE(k.ok()) << k.status();
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(1));
  auto p = SplitKnob::Make("p", {.extent = kMaxSplitExtent, .num_parts = 4});  // 2^32
  ASSERT_TRUE(p.ok()) << p.status();
  EXPECT_EQ((*p)->size(), 6545);  // C(32 + 3, 3) ordered ways to share 32 twos among 4 parts
}

TEST(SplitKnobTest, TooManyFactorListsAreRefused) {
  // 2^30 into 8 parts: C(37, 7) = 10,295,472 lists, over kMaxSplitEntries.
  auto k = SplitKnob::Make("s", {.extent = int64_t{1} << 30, .num_parts = 8});
  ASSERT_FALSE(k.ok());
  EXPECT_THAT(std::string(k.status().message()),
              HasSubstr("more than 1048576 ways to split extent 1073741824 into 8 parts"));
}

}  // namespace
}  // namespace tunefarm::space
