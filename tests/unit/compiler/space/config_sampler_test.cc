// Seeded random draws: reproducible, valid, and spread over the space.
#include "compiler/space/config_sampler.h"

#include <gtest/gtest.h>
#include <set>

namespace tunefarm::space {
namespace {

void DefineConstrained(ConfigSpace& s) {
  ASSERT_TRUE(s.DefineSplit("x", {.extent = 64, .num_parts = 2}).ok());
  ASSERT_TRUE(s.DefineReorder("order", 3).ok());
  ASSERT_TRUE(s.AddConstraint("small inner", [](const Config& c) {
                 return c.SplitFactors("x")->back() <= 8;
               }).ok());
}

TEST(ConfigSamplerTest, SameSeedSameDraws) {
  ConfigSpace s;
  DefineConstrained(s);
  std::mt19937_64 a(42);
  std::mt19937_64 b(42);
  std::set<int64_t> distinct;
  for (int i = 0; i < 50; ++i) {
    absl::StatusOr<Config> ca = SampleValidConfig(s, a);
    absl::StatusOr<Config> cb = SampleValidConfig(s, b);
    ASSERT_TRUE(ca.ok() && cb.ok());
    EXPECT_EQ(ca->index(), cb->index());
    EXPECT_TRUE(s.IsValid(*ca));
    distinct.insert(ca->index());
  }
  EXPECT_GT(distinct.size(), 10u);
}

TEST(ConfigSamplerTest, NotFoundWhenNothingIsValid) {
  ConfigSpace s;
  DefineConstrained(s);
  ASSERT_TRUE(s.AddConstraint("never", [](const Config&) { return false; }).ok());
  std::mt19937_64 rng(1);
  EXPECT_EQ(SampleValidConfig(s, rng, 20).status().code(), absl::StatusCode::kNotFound);
}

TEST(ConfigSamplerTest, UniformIndexStaysInRange) {
  std::mt19937_64 rng(7);
  std::set<int64_t> seen;
  for (int i = 0; i < 200; ++i) {
    int64_t v = UniformIndex(rng, 5);
    ASSERT_GE(v, 0);
    ASSERT_LT(v, 5);
    seen.insert(v);
  }
  EXPECT_EQ(seen.size(), 5u);
  EXPECT_EQ(UniformIndex(rng, 1), 0);
}

}  // namespace
}  // namespace tunefarm::space
