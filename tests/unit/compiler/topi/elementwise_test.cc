// Elementwise ops, alone and chained (conv-style bias_add -> relu, broadcasting add/multiply,
// clip, sigmoid, tanh), against std:: math, including shapes the vector width does not divide.
#include "compiler/topi/elementwise.h"

#include <cmath>
#include <functional>
#include <gtest/gtest.h>

#include "tests/unit/compiler/topi/topi_harness.h"

namespace tunefarm::topi {
namespace {

using testing::BackendCase;
using testing::Placeholder;

class ElementwiseTest : public ::testing::TestWithParam<BackendCase> {
 protected:
  // Schedules `out` over `inputs` (random data of `shapes`), runs it, compares with `want`.
  void Check(const std::vector<te::Tensor>& inputs, const absl::StatusOr<te::Tensor>& out,
             const std::function<std::vector<float>(const std::vector<runtime::NDArray>&)>& want,
             double atol = 1e-6) {
    ASSERT_TRUE(out.ok()) << out.status();
    std::vector<int64_t> out_shape;
    for (const ir::Expr& e : out->shape()) out_shape.push_back(*ir::AsConstInt(e));
    for (bool parallel : {false, true}) {
      ElementwiseScheduleConfig config = DefaultElementwiseConfig(out_shape, Avx2Cpu());
      config.parallel = parallel;
      config.unroll = parallel ? 2 : 1;
      absl::StatusOr<ScheduledOp> op = ScheduleElementwise(config, inputs, *out);
      ASSERT_TRUE(op.ok()) << op.status();
      std::vector<runtime::NDArray> arrays;
      std::vector<runtime::NDArray*> args;
      for (size_t i = 0; i < inputs.size(); ++i) {
        std::vector<int64_t> shape;
        for (const ir::Expr& e : inputs[i].shape()) shape.push_back(*ir::AsConstInt(e));
        arrays.push_back(testing::RandomArray(shape, 20 + i, -3.0f, 3.0f));
      }
      runtime::NDArray result = testing::OutputArray(out_shape);
      for (auto& a : arrays) args.push_back(&a);
      args.push_back(&result);
      absl::Status st = testing::RunOn(GetParam(), *op, args);
      ASSERT_TRUE(st.ok()) << st;
      EXPECT_TRUE(testing::AllClose(result, want(arrays), atol, 1e-6)) << "parallel " << parallel;
    }
  }
};

// f applied to each element of a.
std::vector<float> Map(const runtime::NDArray& a, const std::function<float(float)>& f) {
  std::vector<float> out = testing::ToVector(a);
  for (float& v : out) v = f(v);
  return out;
}

const std::vector<int64_t> kShape = {3, 5, 19};  // 19: vectors and a tail

TEST_P(ElementwiseTest, Relu) {
  te::Tensor x = Placeholder(kShape, "x");
  Check({x}, ReluCompute(x),
        [](const auto& a) { return Map(a[0], [](float v) { return std::max(v, 0.0f); }); });
}

TEST_P(ElementwiseTest, Clip) {
  te::Tensor x = Placeholder(kShape, "x");
  Check({x}, ClipCompute(x, -0.5, 1.25), [](const auto& a) {
    return Map(a[0], [](float v) { return std::min(std::max(v, -0.5f), 1.25f); });
  });
}

TEST_P(ElementwiseTest, Sigmoid) {
  te::Tensor x = Placeholder(kShape, "x");
  Check({x}, SigmoidCompute(x),
        [](const auto& a) { return Map(a[0], [](float v) { return 1 / (1 + std::exp(-v)); }); });
}

TEST_P(ElementwiseTest, Tanh) {
  te::Tensor x = Placeholder(kShape, "x");
  Check({x}, TanhCompute(x), [](const auto& a) { return Map(a[0], ::tanhf); });
}

TEST_P(ElementwiseTest, BiasAddThenReluFused) {
  te::Tensor x = Placeholder({2, 3, 4, 9}, "x"), bias = Placeholder({3}, "bias");
  absl::StatusOr<te::Tensor> biased = BiasAddCompute(x, bias, 1);
  ASSERT_TRUE(biased.ok()) << biased.status();
  Check({x, bias}, ReluCompute(*biased), [](const auto& a) {
    std::vector<float> out = testing::ToVector(a[0]);
    for (size_t i = 0; i < out.size(); ++i) {
      out[i] = std::max(out[i] + testing::Data(a[1])[(i / 36) % 3], 0.0f);
    }
    return out;
  });
}

TEST_P(ElementwiseTest, BroadcastingAdd) {
  te::Tensor a = Placeholder({4, 1, 13}, "a"), b = Placeholder({3, 1}, "b");
  Check({a, b}, AddCompute(a, b), [](const std::vector<runtime::NDArray>& in) {
    std::vector<float> out(4 * 3 * 13);
    for (int i = 0; i < 4; ++i)
      for (int j = 0; j < 3; ++j)
        for (int k = 0; k < 13; ++k)
          out[(i * 3 + j) * 13 + k] = testing::Data(in[0])[i * 13 + k] + testing::Data(in[1])[j];
    return out;
  });
}

TEST_P(ElementwiseTest, BroadcastingMultiplyWithRankOne) {
  te::Tensor a = Placeholder({2, 11}, "a"), b = Placeholder({11}, "b");
  Check({a, b}, MultiplyCompute(a, b), [](const std::vector<runtime::NDArray>& in) {
    std::vector<float> out(22);
    for (int i = 0; i < 22; ++i) out[i] = testing::Data(in[0])[i] * testing::Data(in[1])[i % 11];
    return out;
  });
}

INSTANTIATE_TEST_SUITE_P(Backends, ElementwiseTest, ::testing::ValuesIn(testing::AllBackends()),
                         testing::BackendName);

TEST(ElementwiseErrorTest, ShapesAreChecked) {
  absl::StatusOr<te::Tensor> t = AddCompute(Placeholder({4, 3}, "a"), Placeholder({5, 3}, "b"));
  ASSERT_FALSE(t.ok());
  EXPECT_THAT(std::string(t.status().message()), ::testing::HasSubstr("add: shapes 4x3 (a)"));
  EXPECT_FALSE(BiasAddCompute(Placeholder({2, 3}, "x"), Placeholder({2}, "b"), 1).ok());
  EXPECT_FALSE(ClipCompute(Placeholder({2}, "x"), 1.0, 0.0).ok());
}

}  // namespace
}  // namespace tunefarm::topi
