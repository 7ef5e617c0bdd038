// Winograd conv2d F(m x m, 3x3) in the blocked layouts: the weight transformed by its TE compute,
// the conv run on every backend, and both compared with the naive NCHW conv, for the three tile
// sizes, both paddings and ragged tiles (output sizes m does not divide). The tolerance grows with
// the tile: the transforms' coefficients reach 2^5 (m = 6), so float32 rounding does too.
#include "compiler/topi/conv2d_winograd.h"

#include <gtest/gtest.h>

#include "tests/unit/compiler/topi/blocked_layouts.h"
#include "tests/unit/compiler/topi/topi_harness.h"

namespace tunefarm::topi {
namespace {

using testing::BackendCase;
using testing::Nchw;
using testing::Placeholder;

struct WinogradCase {
  int m;
  int64_t pad;
  double tolerance;
};

void Check(const BackendCase& backend, const WinogradCase& c) {
  SCOPED_TRACE(::testing::Message() << "F(" << c.m << "x" << c.m << ", 3x3), pad " << c.pad);
  const Nchw d{1, 12, 9, 11};
  const int64_t filters = 20, ib = 4, ob = 8;
  absl::StatusOr<WinogradMatrices> w = MakeWinogradMatrices(c.m, 3);
  ASSERT_TRUE(w.ok()) << w.status();
  runtime::NDArray data = testing::RandomArray({d.n, d.c, d.h, d.w}, 7);
  runtime::NDArray kernel = testing::RandomArray({filters, d.c, 3, 3}, 8);
  runtime::NDArray bdata = testing::BlockData(data, d, ib);
  runtime::NDArray bkernel = testing::BlockKernel(kernel, filters, d.c, 3, 3, ib, ob);

  // U from its own compute, as a model build's constant folding makes it.
  te::Tensor k = Placeholder(bkernel.shape(), "kernel");
  absl::StatusOr<te::Tensor> u = WinogradWeightCompute(k, *w);
  ASSERT_TRUE(u.ok()) << u.status();
  std::vector<int64_t> u_shape;
  for (const ir::Expr& e : u->shape()) u_shape.push_back(*ir::AsConstInt(e));
  runtime::NDArray weight = testing::OutputArray(u_shape);
  ScheduledOp transform{schedule::Schedule::Create({u->op()}), {k, *u}};
  ASSERT_TRUE(testing::RunOn(backend, transform, {&bkernel, &weight}, "transform").ok());

  absl::StatusOr<Conv2dWinogradTensors> t = Conv2dWinogradCompute(
      Placeholder(bdata.shape(), "data"), Placeholder(weight.shape(), "weight"), c.pad, *w);
  ASSERT_TRUE(t.ok()) << t.status();
  Conv2dWinogradScheduleConfig config;
  config.tile = c.m;
  config.vector_lanes = 4;
  absl::StatusOr<ScheduledOp> op = ScheduleConv2dWinograd(config, *t);
  ASSERT_TRUE(op.ok()) << op.status();
  std::vector<int64_t> out_shape;
  for (const ir::Expr& e : t->out.shape()) out_shape.push_back(*ir::AsConstInt(e));
  runtime::NDArray out = testing::OutputArray(out_shape);
  absl::Status st = testing::RunOn(backend, *op, {&bdata, &weight, &out});
  ASSERT_TRUE(st.ok()) << st;
  std::vector<float> want = testing::NaiveConv2d(testing::Data(data), d, testing::Data(kernel),
                                                 filters, 3, 3, Window2d::Make(1, c.pad), false);
  EXPECT_TRUE(
      testing::AllClose(testing::UnblockOutput(out, filters), want, c.tolerance, c.tolerance));
}

class Conv2dWinogradTest : public ::testing::TestWithParam<BackendCase> {};

TEST_P(Conv2dWinogradTest, TwoByTwoTiles) { Check(GetParam(), {2, 1, 1e-4}); }
TEST_P(Conv2dWinogradTest, FourByFourTilesWithoutPadding) { Check(GetParam(), {4, 0, 1e-4}); }

// 8^4 unrolled input-transform terms take seconds to compile: one backend.
TEST(Conv2dWinogradSixTest, SixBySixTiles) { Check({testing::Backend::kJit, 2}, {6, 1, 1e-3}); }

INSTANTIATE_TEST_SUITE_P(Backends, Conv2dWinogradTest, ::testing::ValuesIn(testing::AllBackends()),
                         testing::BackendName);

TEST(Conv2dWinogradComputeTest, MismatchedWeightOrPaddingIsRefusedNamingTheShapes) {
  absl::StatusOr<WinogradMatrices> w = MakeWinogradMatrices(4, 3);
  ASSERT_TRUE(w.ok());
  te::Tensor data = Placeholder({1, 2, 8, 8, 4}, "data");
  absl::StatusOr<Conv2dWinogradTensors> t =
      Conv2dWinogradCompute(data, Placeholder({4, 4, 1, 2, 4, 8}, "weight"), 1, *w);
  ASSERT_FALSE(t.ok());
  EXPECT_EQ(t.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_NE(t.status().message().find("[6][6][OB][2][4][oc]"), std::string::npos) << t.status();
  EXPECT_FALSE(Conv2dWinogradCompute(data, Placeholder({6, 6, 1, 2, 4, 8}, "weight"), 2, *w).ok());
  EXPECT_FALSE(WinogradWeightCompute(Placeholder({1, 2, 5, 5, 4, 8}, "k"), *w).ok());
}

}  // namespace
}  // namespace tunefarm::topi
