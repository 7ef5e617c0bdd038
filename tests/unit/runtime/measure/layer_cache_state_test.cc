#include "runtime/measure/layer_cache_state.h"

#include <gtest/gtest.h>
#include <vector>

namespace tunefarm::runtime::measure {
namespace {

NDArray Floats(int64_t n) {
  absl::StatusOr<NDArray> a = NDArray::Empty({n}, DLDataType{kDLFloat, 32, 1});
  EXPECT_TRUE(a.ok()) << a.status();
  return *std::move(a);
}

// A conv's arguments: input, weights, bias, output. Its weights and bias come from memory; its
// input is cached; its output is neither.
TEST(LayerCacheStateTest, TheArgumentsBetweenTheFirstAndTheLastAreTheWeights) {
  NDArray input = Floats(10), weights = Floats(20), bias = Floats(3), output = Floats(40);
  LayerCacheState state = LayerCacheStateOf({&input, &weights, &bias, &output});
  ASSERT_EQ(state.weights.size(), 2u);
  EXPECT_EQ(state.weights[0].data, weights.data());
  EXPECT_EQ(state.weights[0].bytes, 80u);
  EXPECT_EQ(state.weights[1].data, bias.data());
  EXPECT_EQ(state.weights[1].bytes, 12u);
  ASSERT_EQ(state.inputs.size(), 1u);
  EXPECT_EQ(state.inputs[0].data, input.data());
  EXPECT_EQ(state.inputs[0].bytes, 40u);
  EXPECT_EQ(state.refill_ratio, LayerCacheState().refill_ratio);
}

// An elementwise kernel (input, output) has no weights: nothing is evicted or refilled.
TEST(LayerCacheStateTest, AKernelWithoutWeightsOnlyHasItsInputCached) {
  NDArray input = Floats(10), output = Floats(10);
  LayerCacheState state = LayerCacheStateOf({&input, &output});
  EXPECT_TRUE(state.weights.empty());
  EXPECT_EQ(RefillBytes(state), 0u);
  ASSERT_EQ(state.inputs.size(), 1u);
  EXPECT_TRUE(LayerCacheStateOf({&output}).inputs.empty());
  EXPECT_TRUE(LayerCacheStateOf({}).weights.empty());
}

}  // namespace
}  // namespace tunefarm::runtime::measure
