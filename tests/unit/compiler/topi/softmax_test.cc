// Softmax over the last axis, against a double-precision reference, for 1-D to 3-D inputs and
// rows the vector width does not divide; large inputs check the max subtraction.
#include "compiler/topi/softmax.h"

#include <cmath>
#include <gtest/gtest.h>

#include "tests/unit/compiler/topi/topi_harness.h"

namespace tunefarm::topi {
namespace {

using testing::BackendCase;
using testing::Placeholder;

std::vector<float> NaiveSoftmax(const runtime::NDArray& x, int64_t row) {
  std::vector<float> out(x.NumElements());
  const float* p = testing::Data(x);
  for (int64_t r = 0; r < x.NumElements() / row; ++r) {
    double mx = -INFINITY, sum = 0;
    for (int64_t i = 0; i < row; ++i) mx = std::max(mx, static_cast<double>(p[r * row + i]));
    for (int64_t i = 0; i < row; ++i) sum += std::exp(p[r * row + i] - mx);
    for (int64_t i = 0; i < row; ++i) out[r * row + i] = std::exp(p[r * row + i] - mx) / sum;
  }
  return out;
}

class SoftmaxTest : public ::testing::TestWithParam<BackendCase> {
 protected:
  void Check(const std::vector<int64_t>& shape, bool store_exp, float scale = 3.0f) {
    absl::StatusOr<SoftmaxTensors> t = SoftmaxCompute(Placeholder(shape, "x"));
    ASSERT_TRUE(t.ok()) << t.status();
    SoftmaxScheduleConfig config = DefaultSoftmaxConfig(*t, Avx2Cpu());
    config.store_exp = store_exp;
    config.parallel = true;
    SCOPED_TRACE(config.ToString());
    absl::StatusOr<ScheduledOp> op = ScheduleSoftmax(config, *t);
    ASSERT_TRUE(op.ok()) << op.status();
    runtime::NDArray x = testing::RandomArray(shape, 30, -scale, scale);
    runtime::NDArray out = testing::OutputArray(shape);
    absl::Status st = testing::RunOn(GetParam(), *op, {&x, &out});
    ASSERT_TRUE(st.ok()) << st;
    EXPECT_TRUE(testing::AllClose(out, NaiveSoftmax(x, shape.back()), 1e-6, 1e-5));
  }
};

TEST_P(SoftmaxTest, RowsWithStoredExp) { Check({5, 19}, true); }
TEST_P(SoftmaxTest, RowsWithRecomputedExp) { Check({5, 19}, false); }
TEST_P(SoftmaxTest, OneDimension) { Check({37}, true); }
TEST_P(SoftmaxTest, ThreeDimensions) { Check({2, 3, 16}, true); }

TEST_P(SoftmaxTest, LargeLogitsDoNotOverflow) { Check({3, 10}, true, 200.0f); }

INSTANTIATE_TEST_SUITE_P(Backends, SoftmaxTest, ::testing::ValuesIn(testing::AllBackends()),
                         testing::BackendName);

TEST(SoftmaxErrorTest, SymbolicShapeIsAnError) {
  te::Tensor x = te::placeholder({te::var("n"), 4}, ir::DataType::Float(32), "x");
  EXPECT_FALSE(SoftmaxCompute(x).ok());
}

}  // namespace
}  // namespace tunefarm::topi
