#include "runtime/cpu_caches.h"

#include <gtest/gtest.h>
#include <vector>

namespace tunefarm::runtime {
namespace {

// The refill is sized from the weights alone; nothing is read to size it, so regions that
// describe no memory do here.
TEST(CpuCachesTest, TheRefillIsTheRatioTimesTheWeightsAtMostAFlushBuffer) {
  LayerCacheState state;
  state.weights = {{nullptr, 3 << 20}, {nullptr, 1 << 20}};
  state.inputs = {{nullptr, 64 << 20}};  // inputs do not count
  state.refill_ratio = 2.5;
  EXPECT_EQ(RefillBytes(state), size_t{10} << 20);
  state.refill_ratio = 0;
  EXPECT_EQ(RefillBytes(state), 0u);
  state.refill_ratio = 4;
  state.weights = {{nullptr, CacheFlushBytes()}};
  EXPECT_EQ(RefillBytes(state), CacheFlushBytes());
  state.weights.clear();
  EXPECT_EQ(RefillBytes(state), 0u);
  EXPECT_EQ(LayerCacheState().refill_ratio, 4);
}

// Evicting writes dirty lines back and the refill and the inputs are only read: every region
// keeps what was written, whatever its alignment and length (a region of 0 bytes touches nothing).
TEST(CpuCachesTest, RecreatingALayersCachesKeepsEveryRegionsContents) {
  std::vector<float> weights(100'003);
  for (size_t i = 0; i < weights.size(); ++i) weights[i] = static_cast<float>(i) * 0.5f;
  std::vector<unsigned char> input(1000);
  for (size_t i = 0; i < input.size(); ++i) input[i] = static_cast<unsigned char>(i * 7);
  LayerCacheState state;
  state.weights = {{weights.data() + 1, (weights.size() - 2) * sizeof(float)}, {weights.data(), 0}};
  state.inputs = {{input.data() + 3, input.size() - 5}};
  for (int round = 0; round < 3; ++round) RecreateLayerCacheState(state);
  for (size_t i = 0; i < weights.size(); ++i) ASSERT_EQ(weights[i], static_cast<float>(i) * 0.5f);
  for (size_t i = 0; i < input.size(); ++i) {
    ASSERT_EQ(input[i], static_cast<unsigned char>(i * 7));
  }
}

TEST(CpuCachesTest, FlushingWritesOnlyTheThreadsOwnBuffer) {
  std::vector<int> data(4096, 42);
  FlushCaches(size_t{1} << 20);
  FlushCaches(size_t{2} << 20);  // a larger flush grows the buffer
  FlushCaches(size_t{1} << 20);
  for (int v : data) ASSERT_EQ(v, 42);
  EXPECT_GT(CacheFlushBytes(), size_t{1} << 20);
}

}  // namespace
}  // namespace tunefarm::runtime
