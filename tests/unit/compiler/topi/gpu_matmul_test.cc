// The GPU matmul template on the interpreter (which runs thread-bound loops block by block and
// switches threads only at barriers): the default config and a seeded sample of its space
// against a naive matmul.
#include "compiler/topi/gpu_matmul.h"

#include <gtest/gtest.h>

#include "compiler/topi/gpu_matmul_knobs.h"
#include "tests/unit/compiler/topi/knob_test_util.h"
#include "tests/unit/compiler/topi/topi_harness.h"

namespace tunefarm::topi {
namespace {

constexpr int64_t kM = 37, kN = 29, kK = 23;

std::vector<float> NaiveMatmul(const runtime::NDArray& a, const runtime::NDArray& b) {
  std::vector<float> c(kM * kN);
  for (int64_t i = 0; i < kM; ++i) {
    for (int64_t j = 0; j < kN; ++j) {
      double acc = 0;
      for (int64_t k = 0; k < kK; ++k) {
        acc += static_cast<double>(testing::Data(a)[i * kK + k]) * testing::Data(b)[k * kN + j];
      }
      c[i * kN + j] = static_cast<float>(acc);
    }
  }
  return c;
}

GemmTensors Tensors() {
  return *MatmulCompute(testing::Placeholder({kM, kK}, "A"), testing::Placeholder({kK, kN}, "B"));
}

void ExpectGpuMatmulMatchesNaive(const GpuMatmulScheduleConfig& config) {
  SCOPED_TRACE(config.ToString());
  absl::StatusOr<ScheduledOp> op = ScheduleGpuMatmul(config, Tensors());
  ASSERT_TRUE(op.ok()) << op.status();
  runtime::NDArray a = testing::RandomArray({kM, kK}, 1);
  runtime::NDArray b = testing::RandomArray({kK, kN}, 2);
  runtime::NDArray c = testing::OutputArray({kM, kN});
  absl::Status st = testing::RunOn({testing::Backend::kInterp, 1}, *op, {&a, &b, &c});
  ASSERT_TRUE(st.ok()) << st;
  EXPECT_TRUE(testing::AllClose(c, NaiveMatmul(a, b), 1e-4, 1e-4));
}

TEST(GpuMatmulTest, DefaultConfigMatchesNaive) {
  ExpectGpuMatmulMatchesNaive(DefaultGpuMatmulConfig(kM, kN, kK));
}

TEST(GpuMatmulTest, VirtualThreadsAndRaggedTilesMatchNaive) {
  GpuMatmulScheduleConfig c;
  c.m = {2, 4, 3};
  c.n = {2, 2, 4};
  c.tile_k = 5;
  c.unroll_k = false;
  ExpectGpuMatmulMatchesNaive(c);
}

TEST(GpuMatmulTest, SampledConfigsMatchNaive) {
  space::ConfigSpace space;
  ASSERT_TRUE(DefineGpuMatmulKnobs(space, Tensors()).ok());
  for (const space::Config& p : testing::Sample(space, 5, 7)) {
    absl::StatusOr<GpuMatmulScheduleConfig> c = GpuMatmulConfigFromKnobs(p);
    ASSERT_TRUE(c.ok()) << c.status();
    EXPECT_LE(c->Threads(), kGpuMaxThreadsPerBlock);
    EXPECT_LE(c->SharedBytes(), kGpuMaxSharedBytes);
    ExpectGpuMatmulMatchesNaive(*c);
  }
}

TEST(GpuMatmulTest, RejectsTooManyThreadsAndTooMuchSharedMemory) {
  GpuMatmulScheduleConfig c = DefaultGpuMatmulConfig(kM, kN, kK);
  c.m.threads = 64;
  c.n.threads = 32;
  EXPECT_EQ(ScheduleGpuMatmul(c, Tensors()).status().code(), absl::StatusCode::kInvalidArgument);
  c = DefaultGpuMatmulConfig(kM, kN, kK);
  c.m.inner = 64;
  c.tile_k = 256;
  EXPECT_EQ(ScheduleGpuMatmul(c, Tensors()).status().code(), absl::StatusCode::kInvalidArgument);
}

}  // namespace
}  // namespace tunefarm::topi
