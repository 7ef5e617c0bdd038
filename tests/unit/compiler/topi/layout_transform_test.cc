// NCHW <-> NCHWc and OIHW -> blocked kernel: each element lands where a naive re-index puts it,
// zeros fill the blocks past the channel count, and the round trip is the identity.
#include "compiler/topi/layout_transform.h"

#include <gtest/gtest.h>

#include "tests/unit/compiler/topi/topi_harness.h"

namespace tunefarm::topi {
namespace {

using testing::BackendCase;
using testing::Placeholder;

std::vector<int64_t> ShapeOf(const te::Tensor& t) {
  std::vector<int64_t> shape;
  for (const ir::Expr& e : t.shape()) shape.push_back(*ir::AsConstInt(e));
  return shape;
}

class LayoutTransformTest : public ::testing::TestWithParam<BackendCase> {
 protected:
  // Runs in -> out with the default config and returns the output.
  runtime::NDArray Run(const te::Tensor& in, const te::Tensor& out, runtime::NDArray& data) {
    absl::StatusOr<ScheduledOp> op =
        ScheduleLayoutTransform(DefaultLayoutTransformConfig(ShapeOf(out), Avx2Cpu()), in, out);
    EXPECT_TRUE(op.ok()) << op.status();
    runtime::NDArray result = testing::OutputArray(ShapeOf(out));
    if (!op.ok()) return result;
    absl::Status st = testing::RunOn(GetParam(), *op, {&data, &result});
    EXPECT_TRUE(st.ok()) << st;
    return result;
  }
};

TEST_P(LayoutTransformTest, NchwToNchwcAndBack) {
  const int64_t n = 2, c = 5, h = 3, w = 9, block = 4;  // 5 channels: a ragged block
  te::Tensor data = Placeholder({n, c, h, w}, "data");
  absl::StatusOr<te::Tensor> blocked = NchwToNchwcCompute(data, block);
  ASSERT_TRUE(blocked.ok()) << blocked.status();
  EXPECT_EQ(ShapeOf(*blocked), (std::vector<int64_t>{n, 2, h, w, block}));
  runtime::NDArray input = testing::RandomArray({n, c, h, w}, 9);
  runtime::NDArray got = Run(data, *blocked, input);
  std::vector<float> want(got.NumElements());
  for (int64_t i = 0; i < n; ++i)
    for (int64_t ch = 0; ch < 2 * block; ++ch)
      for (int64_t s = 0; s < h * w; ++s)
        want[((i * 2 + ch / block) * h * w + s) * block + ch % block] =
            ch < c ? testing::Data(input)[(i * c + ch) * h * w + s] : 0.0f;
  EXPECT_TRUE(testing::AllClose(got, want, 0, 0));

  te::Tensor back_in = Placeholder(ShapeOf(*blocked), "blocked");
  absl::StatusOr<te::Tensor> back = NchwcToNchwCompute(back_in, c);
  ASSERT_TRUE(back.ok()) << back.status();
  runtime::NDArray round = Run(back_in, *back, got);
  EXPECT_TRUE(testing::AllClose(round, testing::ToVector(input), 0, 0));
}

TEST_P(LayoutTransformTest, KernelToBlocked) {
  const int64_t o = 6, c = 3, kh = 2, kw = 3, ib = 2, ob = 4;
  te::Tensor kernel = Placeholder({o, c, kh, kw}, "kernel");
  absl::StatusOr<te::Tensor> blocked = OihwToBlockedCompute(kernel, ib, ob);
  ASSERT_TRUE(blocked.ok()) << blocked.status();
  EXPECT_EQ(ShapeOf(*blocked), (std::vector<int64_t>{2, 2, kh, kw, ib, ob}));
  runtime::NDArray input = testing::RandomArray({o, c, kh, kw}, 10);
  runtime::NDArray got = Run(kernel, *blocked, input);
  std::vector<float> want(got.NumElements());
  for (int64_t f = 0; f < 2 * ob; ++f)
    for (int64_t ch = 0; ch < 2 * ib; ++ch)
      for (int64_t s = 0; s < kh * kw; ++s)
        want[(((f / ob) * 2 + ch / ib) * kh * kw + s) * ib * ob + (ch % ib) * ob + f % ob] =
            f < o && ch < c ? testing::Data(input)[(f * c + ch) * kh * kw + s] : 0.0f;
  EXPECT_TRUE(testing::AllClose(got, want, 0, 0));
}

INSTANTIATE_TEST_SUITE_P(Backends, LayoutTransformTest, ::testing::ValuesIn(testing::AllBackends()),
                         testing::BackendName);

TEST(LayoutTransformErrorTest, BadBlocksAndChannels) {
  te::Tensor data = Placeholder({1, 4, 2, 2}, "data");
  EXPECT_FALSE(NchwToNchwcCompute(data, 0).ok());
  EXPECT_FALSE(NchwToNchwcCompute(Placeholder({4, 2, 2}, "x"), 4).ok());
  absl::StatusOr<te::Tensor> back = NchwcToNchwCompute(Placeholder({1, 1, 2, 2, 4}, "b"), 5);
  ASSERT_FALSE(back.ok());
  EXPECT_THAT(std::string(back.status().message()), ::testing::HasSubstr("1x1x2x2x4"));
  EXPECT_FALSE(OihwToBlockedCompute(Placeholder({4, 4, 3, 3}, "k"), 4, -1).ok());
}

}  // namespace
}  // namespace tunefarm::topi
