#include "runtime/vta/vta_matmul_program.h"

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <random>
#include <string>
#include <vector>

#include "runtime/vta/vta_config.h"
#include "runtime/vta/vta_simulator.h"

namespace tunefarm::runtime::vta {
namespace {

using ::testing::HasSubstr;

uint64_t AlignUp(uint64_t x, uint64_t to) { return (x + to - 1) / to * to; }

struct MatmulRun {
  std::vector<int8_t> c;
  VtaRunStats stats;
};

// Builds and runs C = clamp((A x B^T) >> shift) on random data; the reference is computed here.
MatmulRun RunMatmul(int64_t m, int64_t k, int64_t n, const VtaMatmulOptions& options,
                    std::vector<int8_t>* expected = nullptr) {
  const VtaConfig config;
  std::mt19937 rng(static_cast<uint32_t>(m * 1000003 + k * 1009 + n));
  std::uniform_int_distribution<int> value(-128, 127);
  std::vector<int8_t> a(m * k), b(n * k);
  for (int8_t& x : a) x = static_cast<int8_t>(value(rng));
  for (int8_t& x : b) x = static_cast<int8_t>(value(rng));

  VtaMatmulLayout layout;
  layout.a_offset = 0;
  layout.b_offset = AlignUp(a.size(), 256);
  layout.c_offset = AlignUp(layout.b_offset + b.size(), 16);
  layout.uop_offset = AlignUp(layout.c_offset + m * n, 4);
  absl::StatusOr<VtaProgram> program = BuildMatmulProgram(config, m, k, n, layout, options);
  EXPECT_TRUE(program.ok()) << program.status();
  if (!program.ok()) return {};
  absl::StatusOr<std::string> uops = program->EncodeUopTable();
  EXPECT_TRUE(uops.ok()) << uops.status();
  // The program goes through its binary form, as a worker would receive it.
  absl::StatusOr<std::string> bytes = program->EncodeInstructions();
  EXPECT_TRUE(bytes.ok()) << bytes.status();
  absl::StatusOr<std::vector<VtaInstruction>> decoded = DecodeProgram(*bytes, config);
  EXPECT_TRUE(decoded.ok()) << decoded.status();
  if (!uops.ok() || !decoded.ok()) return {};

  std::vector<uint8_t> dram(layout.uop_offset + uops->size());
  const std::vector<int8_t> packed_a = PackMatmulInput(config, a, m, k);
  const std::vector<int8_t> packed_b = PackMatmulWeight(config, b, n, k);
  std::copy(packed_a.begin(), packed_a.end(), dram.begin() + layout.a_offset);
  std::copy(packed_b.begin(), packed_b.end(), dram.begin() + layout.b_offset);
  std::copy(uops->begin(), uops->end(), dram.begin() + layout.uop_offset);
  absl::StatusOr<VtaRunStats> stats = VtaSimulator(config).Run(*decoded, absl::MakeSpan(dram));
  EXPECT_TRUE(stats.ok()) << stats.status();
  if (!stats.ok()) return {};

  if (expected != nullptr) {
    expected->assign(m * n, 0);
    for (int64_t i = 0; i < m; ++i) {
      for (int64_t j = 0; j < n; ++j) {
        int32_t sum = 0;
        for (int64_t kk = 0; kk < k; ++kk) sum += int32_t{a[i * k + kk]} * int32_t{b[j * k + kk]};
        (*expected)[i * n + j] = static_cast<int8_t>(std::clamp(sum >> options.shift, -128, 127));
      }
    }
  }
  return {
      UnpackMatmulOutput(config, absl::MakeConstSpan(dram).subspan(layout.c_offset, m * n), m, n),
      *stats};
}

struct MatmulShape {
  int64_t m, k, n;
  int shift;
};

TEST(VtaMatmulProgramTest, IsBitExactAgainstTheInt32Reference) {
  for (const MatmulShape& s : {MatmulShape{1, 16, 16, 0}, MatmulShape{4, 64, 32, 6},
                               MatmulShape{16, 128, 64, 9}, MatmulShape{3, 48, 80, 31}}) {
    for (int buffers : {1, 2}) {
      SCOPED_TRACE(testing::Message() << s.m << "x" << s.k << "x" << s.n << " buffers " << buffers);
      std::vector<int8_t> expected;
      MatmulRun run = RunMatmul(s.m, s.k, s.n, {.shift = s.shift, .buffers = buffers}, &expected);
      EXPECT_EQ(run.c, expected);
      EXPECT_EQ(run.stats.gemm_macs, s.m * s.k * s.n);
    }
  }
}

TEST(VtaMatmulProgramTest, SmallTilesAlternateBuffersCorrectly) {
  // 4 x 4 tiles of 4 K chunks each: every copy of every buffer is reused many times.
  std::vector<int8_t> expected;
  MatmulRun run =
      RunMatmul(16, 128, 64, {.shift = 7, .tile_m = 4, .tile_n = 1, .tile_k = 2}, &expected);
  EXPECT_EQ(run.c, expected);
  EXPECT_EQ(run.stats.count(VtaOpcode::kStore), 16);
  EXPECT_EQ(run.stats.count(VtaOpcode::kGemm), 16 * (1 + 4));
}

// The roofline: the load module moves its bytes at dma_bytes_per_cycle and the GEMM core does one
// batch x block_in x block_out product a cycle; no schedule beats the slower of the two.
TEST(VtaMatmulProgramTest, DoubleBufferingApproachesTheRoofline) {
  const VtaConfig config;
  for (const MatmulShape& s :
       {MatmulShape{16, 128, 64, 8}, MatmulShape{64, 256, 64, 8}, MatmulShape{256, 512, 128, 8}}) {
    SCOPED_TRACE(testing::Message() << s.m << "x" << s.k << "x" << s.n);
    const MatmulRun doubled = RunMatmul(s.m, s.k, s.n, {.shift = s.shift, .buffers = 2});
    const VtaRunStats& d = doubled.stats;
    const double compute_bound = static_cast<double>(d.gemm_macs) / config.MacsPerGemmUop();
    const double dma_bound =
        static_cast<double>(d.module(VtaModule::kLoad).dram_bytes) / config.dma_bytes_per_cycle;
    const double bound = std::max(compute_bound, dma_bound);
    // The same tiles with one copy of each: loads and compute take turns.
    absl::StatusOr<VtaMatmulTiling> tiles = ChooseMatmulTiling(config, s.m, s.k, s.n, 2);
    ASSERT_TRUE(tiles.ok()) << tiles.status();
    const MatmulRun single = RunMatmul(s.m, s.k, s.n,
                                       {.shift = s.shift,
                                        .buffers = 1,
                                        .tile_m = tiles->tile_m,
                                        .tile_n = tiles->tile_n,
                                        .tile_k = tiles->tile_k});
    std::printf(
        "[ vta      ] %ldx%ldx%ld tiles (%ld, %ld, %ld): double %ld cycles, single %ld, "
        "bound %.0f (compute %.0f, dma %.0f), double/bound %.2f\n",
        static_cast<long>(s.m), static_cast<long>(s.k), static_cast<long>(s.n),
        static_cast<long>(tiles->tile_m), static_cast<long>(tiles->tile_n),
        static_cast<long>(tiles->tile_k), static_cast<long>(d.total_cycles),
        static_cast<long>(single.stats.total_cycles), bound, compute_bound, dma_bound,
        d.total_cycles / bound);
    EXPECT_GE(static_cast<double>(d.total_cycles), bound);
    EXPECT_LT(d.total_cycles, single.stats.total_cycles);
    if (s.m >= 256) {  // large enough that one tile's epilogue and the pipeline fill are amortised
      EXPECT_LE(static_cast<double>(d.total_cycles), 1.5 * bound);
    }
  }
}

TEST(VtaMatmulProgramTest, RefusesShapesAndTilesThatDoNotFit) {
  const VtaConfig config;
  EXPECT_THAT(BuildMatmulProgram(config, 4, 20, 16, {}, {}).status().message(),
              HasSubstr("must be positive multiples of batch 1, block_in 16 and block_out 16"));
  EXPECT_THAT(BuildMatmulProgram(config, 4, 64, 16, {}, {.tile_k = 3}).status().message(),
              HasSubstr("must divide the blocks"));
  EXPECT_THAT(
      BuildMatmulProgram(config, 2048, 16, 32, {}, {.tile_m = 2048, .tile_n = 2, .tile_k = 1})
          .status()
          .message(),
      HasSubstr("do not fit the on-chip buffers"));
  EXPECT_THAT(BuildMatmulProgram(config, 4, 64, 16, {.b_offset = 100}, {}).status().message(),
              HasSubstr("b_offset 100 must be a multiple of its 256-byte entries"));
  EXPECT_THAT(BuildMatmulProgram(config, 4, 64, 16, {}, {.shift = 32}).status().message(),
              HasSubstr("shift 32"));
  EXPECT_THAT(BuildMatmulProgram(config, 4, 64, 16, {}, {.buffers = 3}).status().message(),
              HasSubstr("buffers must be 1 or 2"));
}

}  // namespace
}  // namespace tunefarm::runtime::vta
