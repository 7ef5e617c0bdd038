// conv2d NCHWc: data and kernel blocked in C++ here (independently of layout_transform), the
// blocked output unblocked the same way, and compared with the naive NCHW conv, channel counts
// that the blocks do not divide included.
#include "compiler/topi/conv2d_nchwc.h"

#include <algorithm>
#include <gtest/gtest.h>
#include <utility>

#include "tests/unit/compiler/topi/blocked_layouts.h"
#include "tests/unit/compiler/topi/naive_window_ops.h"
#include "tests/unit/compiler/topi/topi_harness.h"

namespace tunefarm::topi {
namespace {

using testing::BackendCase;
using testing::Nchw;
using testing::Placeholder;

constexpr double kNchwcAtol = 1e-4, kNchwcRtol = 1e-4;

struct NchwcCase {
  Nchw data;
  int64_t out_channels, kh, kw;
  Window2d window;
};

class Conv2dNchwcTest : public ::testing::TestWithParam<BackendCase> {
 protected:
  void Check(const NchwcCase& c, void (*tweak)(Conv2dNchwcScheduleConfig&) = nullptr) {
    const Nchw& d = c.data;
    std::vector<int64_t> data_shape = {d.n, d.c, d.h, d.w};
    std::vector<int64_t> kernel_shape = {c.out_channels, d.c, c.kh, c.kw};
    Conv2dNchwcScheduleConfig config =
        DefaultConv2dNchwcConfig(data_shape, kernel_shape, c.window, Avx2Cpu());
    if (tweak) tweak(config);
    SCOPED_TRACE(config.ToString() + ", " + c.window.ToString());
    runtime::NDArray data = testing::RandomArray(data_shape, 5);
    runtime::NDArray kernel = testing::RandomArray(kernel_shape, 6);
    runtime::NDArray bdata = testing::BlockData(data, d, config.ic_block);
    runtime::NDArray bkernel = testing::BlockKernel(kernel, c.out_channels, d.c, c.kh, c.kw,
                                                    config.ic_block, config.oc_block);
    absl::StatusOr<Conv2dNchwcTensors> t = Conv2dNchwcCompute(
        Placeholder(bdata.shape(), "data"), Placeholder(bkernel.shape(), "kernel"), c.window);
    ASSERT_TRUE(t.ok()) << t.status();
    absl::StatusOr<ScheduledOp> op = ScheduleConv2dNchwc(config, *t);
    ASSERT_TRUE(op.ok()) << op.status();
    std::vector<int64_t> out_shape;
    for (const ir::Expr& e : t->out.shape()) out_shape.push_back(*ir::AsConstInt(e));
    runtime::NDArray out = testing::OutputArray(out_shape);
    absl::Status st = testing::RunOn(GetParam(), *op, {&bdata, &bkernel, &out});
    ASSERT_TRUE(st.ok()) << st;
    runtime::NDArray got = testing::UnblockOutput(out, c.out_channels);
    std::vector<float> want = testing::NaiveConv2d(testing::Data(data), d, testing::Data(kernel),
                                                   c.out_channels, c.kh, c.kw, c.window, false);
    EXPECT_TRUE(testing::AllClose(got, want, kNchwcAtol, kNchwcRtol));
  }
};

TEST_P(Conv2dNchwcTest, ResNetLike3x3) { Check({{1, 16, 6, 8}, 16, 3, 3, Window2d::Make(1, 1)}); }

TEST_P(Conv2dNchwcTest, RaggedChannelsStrideDilation) {
  Window2d w{2, 1, 2, 1, 0, 1, 1, 2};  // stride 2x1, pad t2 l1 b0 r1, dilation 1x2
  Check({{2, 5, 9, 11}, 11, 3, 3, w});
}

const NchwcCase kNchwcKnobCase{{1, 12, 5, 13}, 20, 3, 1, Window2d::Make(1, 1)};

TEST_P(Conv2dNchwcTest, WindowFirstOrder) {
  Check(kNchwcKnobCase,
        [](Conv2dNchwcScheduleConfig& k) { k.order = ConvReduceOrder::kWindowFirst; });
}

TEST_P(Conv2dNchwcTest, PaddingInlinedAndKwUnrolled) {
  Check(kNchwcKnobCase, [](Conv2dNchwcScheduleConfig& k) {
    k.pad_inline = true;
    k.unroll_kw = true;
  });
}

// One register tile per row: unrolling knows every padded column, so those products are
// dropped, and the padded rows' check runs once per kernel row (skip_padding_taps).
TEST_P(Conv2dNchwcTest, PaddingInlinedWithWholeRowTiles) {
  Check(kNchwcKnobCase, [](Conv2dNchwcScheduleConfig& k) {
    k.pad_inline = true;
    k.unroll_kw = true;
    k.reg_w = 13;
    k.oc_block = 8;
    k.vector_lanes = 4;
  });
}

// Tiles of 4 across 13 columns: the first and last tiles are peeled (the last one ragged).
TEST_P(Conv2dNchwcTest, PaddingInlinedWithBorderTiles) {
  Check(kNchwcKnobCase, [](Conv2dNchwcScheduleConfig& k) {
    k.pad_inline = true;
    k.unroll_kw = true;
    k.reg_w = 4;
  });
}

TEST_P(Conv2dNchwcTest, RaggedBlocksAndTiles) {
  Check(kNchwcKnobCase, [](Conv2dNchwcScheduleConfig& k) {
    k.ic_block = 5;  // 12 channels: a ragged input block
    k.oc_block = 8;
    k.vector_lanes = 4;
    k.reg_w = 3;  // 13 columns: a ragged register tile
    k.parallel = false;
  });
}

INSTANTIATE_TEST_SUITE_P(Backends, Conv2dNchwcTest, ::testing::ValuesIn(testing::AllBackends()),
                         testing::BackendName);

TEST_P(Conv2dNchwcTest, FewFiltersRunANarrowBlockOnNarrowerVectors) {
  // 3 filters (an RGB output) on 8-lane vectors: a block of 4 on 4-lane vectors, not 8 of which
  // 5 pad; 6 filters: a block of 8, one whole vector.
  Check({{1, 8, 9, 11}, 3, 3, 3, Window2d::Make(1, 1)}, [](Conv2dNchwcScheduleConfig& c) {
    EXPECT_EQ(c.oc_block, 4);
    EXPECT_EQ(c.vector_lanes, 4);
  });
  Check({{1, 5, 7, 7}, 6, 1, 1, Window2d::Make(1, 0)}, [](Conv2dNchwcScheduleConfig& c) {
    EXPECT_EQ(c.oc_block, 8);
    EXPECT_EQ(c.vector_lanes, 8);
  });
}

TEST(Conv2dNchwcErrorTest, BlocksMustAgree) {
  absl::StatusOr<Conv2dNchwcTensors> t =
      Conv2dNchwcCompute(Placeholder({1, 2, 8, 8, 8}, "data"),
                         Placeholder({2, 2, 3, 3, 4, 16}, "kernel"), Window2d::Make(1, 1));
  ASSERT_FALSE(t.ok());
  EXPECT_THAT(std::string(t.status().message()),
              ::testing::HasSubstr("data 1x2x8x8x8 (NCHWc), kernel 2x2x3x3x4x16"));

  t = Conv2dNchwcCompute(Placeholder({1, 2, 8, 8, 8}, "data"),
                         Placeholder({2, 2, 3, 3, 8, 16}, "kernel"), Window2d::Make(1, 1));
  ASSERT_TRUE(t.ok()) << t.status();
  Conv2dNchwcScheduleConfig config;
  config.oc_block = 8;
  absl::StatusOr<ScheduledOp> op = ScheduleConv2dNchwc(config, *t);
  ASSERT_FALSE(op.ok());
  EXPECT_EQ(op.status().code(), absl::StatusCode::kFailedPrecondition);
}

TEST(Conv2dNchwcErrorTest, KernelLargerThanPaddedInput) {
  absl::StatusOr<Conv2dNchwcTensors> t =
      Conv2dNchwcCompute(Placeholder({1, 1, 3, 3, 8}, "data"),
                         Placeholder({1, 1, 5, 5, 8, 8}, "kernel"), Window2d::Make(1, 0));
  ASSERT_FALSE(t.ok());
  EXPECT_THAT(std::string(t.status().message()), ::testing::HasSubstr("padded input 3x3"));
}

TEST(Conv2dNchwcDefaultConfigTest, ResNetBlocksFitTheRegisters) {
  Conv2dNchwcScheduleConfig c =
      DefaultConv2dNchwcConfig({1, 64, 56, 56}, {64, 64, 3, 3}, Window2d::Make(1, 1), Avx2Cpu());
  EXPECT_EQ(c.oc_block % c.vector_lanes, 0);
  EXPECT_EQ(64 % c.ic_block, 0);
  EXPECT_EQ(56 % c.reg_w, 0);
  EXPECT_LE(c.reg_w * (c.oc_block / c.vector_lanes) + c.oc_block / c.vector_lanes + 1, 16);
  EXPECT_TRUE(c.pad_inline);  // padded products are skipped, a padded copy would compute them
  EXPECT_TRUE(c.unroll_kw);
}

TEST(Conv2dNchwcDefaultConfigTest, NarrowBlocksOnAnAvx512Cpu) {
  CpuInfo avx512 = Avx2Cpu();
  avx512.vector_bits = 512;
  avx512.vector_registers = 32;
  const std::pair<int64_t, int64_t> cases[] = {{1, 4},  {3, 4},   {4, 4},   {5, 8},  {8, 8},
                                               {9, 16}, {16, 16}, {24, 16}, {32, 32}};
  for (const auto& [filters, block] : cases) {
    Conv2dNchwcScheduleConfig c = DefaultConv2dNchwcConfig({1, 16, 20, 20}, {filters, 16, 3, 3},
                                                           Window2d::Make(1, 1), avx512);
    EXPECT_EQ(c.oc_block, block) << filters << " filters";
    EXPECT_EQ(c.vector_lanes, std::min<int64_t>(block, 16)) << filters << " filters";
    EXPECT_EQ(NarrowOcBlock(filters, avx512), std::min<int64_t>(block, 16)) << filters;
  }
  // A layout's block of 8 (a narrow producer's) on 16-lane vectors: half vectors.
  Conv2dNchwcScheduleConfig given = DefaultConv2dNchwcConfig(
      {1, 8, 20, 20}, {8, 8, 3, 3}, Window2d::Make(1, 1), avx512, NchwcBlocks{8, 8});
  EXPECT_EQ(given.vector_lanes, 8);
  EXPECT_EQ(BlockVectorLanes(48, avx512), 16);
  EXPECT_EQ(BlockVectorLanes(24, avx512), 8);
}

TEST(Conv2dNchwcDefaultConfigTest, SmallFeatureMapsGetWholeRowTiles) {
  CpuInfo avx512 = Avx2Cpu();
  avx512.vector_bits = 512;
  avx512.vector_registers = 32;
  Conv2dNchwcScheduleConfig c =
      DefaultConv2dNchwcConfig({1, 512, 7, 7}, {512, 512, 3, 3}, Window2d::Make(1, 1), avx512);
  EXPECT_EQ(c.reg_w, 7);  // 7 columns x 2 vectors of 16 output channels: 14 accumulators
  Conv2dNchwcScheduleConfig unpadded =
      DefaultConv2dNchwcConfig({1, 64, 56, 56}, {128, 64, 1, 1}, Window2d::Make(2, 0), Avx2Cpu());
  EXPECT_FALSE(unpadded.pad_inline);
  EXPECT_FALSE(unpadded.unroll_kw);
}

}  // namespace
}  // namespace tunefarm::topi
