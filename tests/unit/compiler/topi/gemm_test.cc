// matmul, dense and batch_matmul: every schedule config the template offers computes what the
// naive triple loop does, on odd, prime and non-divisible shapes.
#include "compiler/topi/gemm.h"

#include <gtest/gtest.h>

#include "compiler/ir/op.h"
#include "compiler/topi/gemm_schedule.h"
#include "tests/unit/compiler/topi/topi_harness.h"

namespace tunefarm::topi {
namespace {

using testing::AllClose;
using testing::BackendCase;
using testing::OutputArray;
using testing::Placeholder;
using testing::RandomArray;

constexpr double kGemmAtol = 1e-4, kGemmRtol = 1e-4;

struct Shape {
  int64_t batch, m, n, k;
};

// C[b, m, n] = sum_k A[b, m, k] * B(b, k, n), B stored [b][k][n] or (transposed) [b][n][k].
std::vector<float> ReferenceGemm(const runtime::NDArray& a, const runtime::NDArray& b,
                                 const Shape& s, bool transposed) {
  std::vector<float> c(s.batch * s.m * s.n);
  const float* pa = testing::Data(a);
  const float* pb = testing::Data(b);
  for (int64_t bt = 0; bt < s.batch; ++bt) {
    for (int64_t i = 0; i < s.m; ++i) {
      for (int64_t j = 0; j < s.n; ++j) {
        double acc = 0;
        for (int64_t k = 0; k < s.k; ++k) {
          int64_t bi = transposed ? (bt * s.n + j) * s.k + k : (bt * s.k + k) * s.n + j;
          acc += static_cast<double>(pa[(bt * s.m + i) * s.k + k]) * pb[bi];
        }
        c[(bt * s.m + i) * s.n + j] = static_cast<float>(acc);
      }
    }
  }
  return c;
}

enum class Op { kMatmul, kDense, kBatchMatmul, kBatchMatmulTransposed };

class GemmTest : public ::testing::TestWithParam<BackendCase> {
 public:
  // Declares `op` on `s` with the config's packing, schedules and runs it, and compares.
  void Check(Op op, const Shape& s, const GemmScheduleConfig& config) {
    SCOPED_TRACE(::testing::Message()
                 << s.batch << "x" << s.m << "x" << s.n << "x" << s.k << ", " << config.ToString());
    const bool batched = op == Op::kBatchMatmul || op == Op::kBatchMatmulTransposed;
    const bool transposed = op == Op::kDense || op == Op::kBatchMatmulTransposed;
    std::vector<int64_t> a_shape = {s.m, s.k};
    std::vector<int64_t> b_shape =
        transposed ? std::vector<int64_t>{s.n, s.k} : std::vector<int64_t>{s.k, s.n};
    std::vector<int64_t> c_shape = {s.m, s.n};
    if (batched) {
      for (auto* shape : {&a_shape, &b_shape, &c_shape}) shape->insert(shape->begin(), s.batch);
    }
    te::Tensor a = Placeholder(a_shape, "A"), b = Placeholder(b_shape, "B");
    absl::StatusOr<GemmTensors> t;
    switch (op) {
      case Op::kMatmul:
        t = MatmulCompute(a, b, config.Layout());
        break;
      case Op::kDense:
        t = DenseCompute(a, b, config.Layout());
        break;
      default:
        t = BatchMatmulCompute(a, b, transposed, config.Layout());
    }
    ASSERT_TRUE(t.ok()) << t.status();
    absl::StatusOr<ScheduledOp> scheduled = ScheduleGemm(config, *t);
    ASSERT_TRUE(scheduled.ok()) << scheduled.status();
    runtime::NDArray da = RandomArray(a_shape, 1), db = RandomArray(b_shape, 2);
    runtime::NDArray dc = OutputArray(c_shape);
    absl::Status st = testing::RunOn(GetParam(), *scheduled, {&da, &db, &dc});
    ASSERT_TRUE(st.ok()) << st;
    EXPECT_TRUE(AllClose(dc, ReferenceGemm(da, db, s, transposed), kGemmAtol, kGemmRtol));
  }
};

// Each test compiles one or two kernels, so that every test stays well under a second on the
// compiled backends.
void CheckDefault(GemmTest& t, Op op, const Shape& s) {
  const bool nk = op == Op::kDense || op == Op::kBatchMatmulTransposed;
  t.Check(op, s,
          DefaultGemmConfig(s.batch, s.m, s.n, s.k, Avx2Cpu(),
                            nk ? WeightLayout::kNK : WeightLayout::kKN));
}

TEST(BalancedGemmTileMTest, RowBlocksAreEvenAndKeepEveryCoreBusy) {
  // A transformer's 128 tokens in 6-row tiles: two blocks of 66 rows, not 96 and 32 (the 2-core
  // run then waited on one core for three quarters of the work).
  EXPECT_EQ(BalancedGemmTileM(128, 6, 4, 2), 66);
  // ViT's 197 tokens against 3 column blocks on 2 cores: 4 row blocks of 54 make 12 blocks, not
  // 3 blocks (16, 16 and 1 tiles) making 9.
  EXPECT_EQ(BalancedGemmTileM(197, 6, 3, 2), 54);
  // Many blocks already: about 16 tiles each, evened out.
  EXPECT_EQ(BalancedGemmTileM(3136, 6, 8, 2), 96);
  EXPECT_EQ(BalancedGemmTileM(4, 6, 1, 2), 6);
  for (int64_t m : {1, 5, 7, 33, 100, 197, 512, 1000}) {
    for (int64_t reg_m : {1, 4, 6}) {
      for (int64_t cores : {1, 2, 3, 8}) {
        const int64_t tile = BalancedGemmTileM(m, reg_m, 3, cores);
        ASSERT_EQ(tile % reg_m, 0) << m << " " << reg_m << " " << cores;
        ASSERT_GE(tile, reg_m);
        ASSERT_LE(tile, 16 * reg_m);
      }
    }
  }
}

TEST_P(GemmTest, MatmulOneElement) { CheckDefault(*this, Op::kMatmul, {1, 1, 1, 1}); }
TEST_P(GemmTest, MatmulPrimeShape) { CheckDefault(*this, Op::kMatmul, {1, 13, 17, 19}); }
TEST_P(GemmTest, MatmulRaggedTiles) { CheckDefault(*this, Op::kMatmul, {1, 37, 29, 13}); }
TEST_P(GemmTest, MatmulDivisibleShape) { CheckDefault(*this, Op::kMatmul, {1, 24, 48, 16}); }
// One or two rows: B streamed row by row into an accumulator per column block (k blocks of 16).
TEST_P(GemmTest, MatrixVector) { CheckDefault(*this, Op::kMatmul, {1, 1, 37, 23}); }
TEST_P(GemmTest, BatchedTwoRowProduct) { CheckDefault(*this, Op::kBatchMatmul, {3, 2, 20, 9}); }

// The weight packed per column block, inside the parallel block loop, in both block orders.
TEST_P(GemmTest, WeightPackedPerColumnBlock) {
  GemmScheduleConfig config = DefaultMatmulConfig(14, 75, 12, Avx2Cpu());
  config.tile_n = 16;
  config.pack_weight_at_block = true;
  config.order = GemmBlockOrder::kNM;
  Check(Op::kMatmul, {1, 14, 75, 12}, config);
  config.order = GemmBlockOrder::kMN;
  config.tile_m = 6;
  Check(Op::kDense, {1, 14, 75, 12}, config);
}

TEST_P(GemmTest, DenseFewRowsManyColumns) { CheckDefault(*this, Op::kDense, {1, 5, 40, 7}); }
TEST_P(GemmTest, DenseRaggedTiles) { CheckDefault(*this, Op::kDense, {1, 37, 29, 13}); }

TEST_P(GemmTest, BatchMatmulPacked) {
  const Shape s{3, 7, 11, 5};
  GemmScheduleConfig config = DefaultBatchMatmulConfig(s.batch, s.m, s.n, s.k, Avx2Cpu());
  Check(Op::kBatchMatmul, s, config);
  Check(Op::kBatchMatmulTransposed, s, config);
}

TEST_P(GemmTest, BatchMatmulUnpacked) {
  const Shape s{2, 9, 10, 6};
  GemmScheduleConfig config = DefaultBatchMatmulConfig(s.batch, s.m, s.n, s.k, Avx2Cpu());
  config.pack_weight = false;
  Check(Op::kBatchMatmul, s, config);
  Check(Op::kBatchMatmulTransposed, s, config);
}

TEST_P(GemmTest, UnpackedWeight) {
  GemmScheduleConfig config = DefaultMatmulConfig(23, 21, 9, Avx2Cpu());
  config.pack_weight = false;
  Check(Op::kMatmul, {1, 23, 21, 9}, config);
  Check(Op::kDense, {1, 23, 21, 9}, config);
}

TEST_P(GemmTest, PackedInput) {
  GemmScheduleConfig config = DefaultMatmulConfig(22, 19, 11, Avx2Cpu());
  config.pack_input = true;  // 22 rows: a ragged block of input rows
  Check(Op::kMatmul, {1, 22, 19, 11}, config);
  config.pack_weight = false;
  Check(Op::kBatchMatmul, {2, 22, 19, 11}, config);
}

GemmScheduleConfig CacheBlockConfig() {
  GemmScheduleConfig config = DefaultMatmulConfig(26, 35, 23, Avx2Cpu());
  config.accumulator = GemmAccumulator::kCacheBlock;
  config.tile_k = 8;  // 23 = 8 + 8 + 7: a ragged k block
  config.tile_m = 12;
  config.tile_n = 32;
  config.reg_m = 3;
  return config;
}

TEST_P(GemmTest, CacheBlockAccumulatorWithKBlocks) {
  Check(Op::kMatmul, {1, 26, 35, 23}, CacheBlockConfig());
}

TEST_P(GemmTest, CacheBlockAccumulatorUnpacked) {
  GemmScheduleConfig config = CacheBlockConfig();
  config.pack_weight = false;
  Check(Op::kDense, {1, 26, 35, 23}, config);
}

GemmScheduleConfig OddKnobs() {
  GemmScheduleConfig config;
  config.vector_lanes = 4;
  config.reg_m = 3;
  config.reg_n_vectors = 3;
  config.tile_m = 7;  // rounded down to a multiple of reg_m
  config.tile_n = 24;
  config.unroll_k = 3;
  config.order = GemmBlockOrder::kNM;
  config.parallel = false;
  return config;
}

TEST_P(GemmTest, OddKnobsRegisterTile) { Check(Op::kMatmul, {1, 19, 31, 10}, OddKnobs()); }

TEST_P(GemmTest, OddKnobsCacheBlock) {
  GemmScheduleConfig config = OddKnobs();
  config.accumulator = GemmAccumulator::kCacheBlock;
  Check(Op::kDense, {1, 19, 31, 10}, config);
}

INSTANTIATE_TEST_SUITE_P(Backends, GemmTest, ::testing::ValuesIn(testing::AllBackends()),
                         testing::BackendName);

// A fused kernel's epilogue, relu(C + bias[n]), applied per register tile: packed in the kernel,
// and with the weight packed beforehand (PackedMatmulCompute, the build-time packing).
TEST_P(GemmTest, EpilogueAppliedInTheTile) {
  const Shape s{1, 13, 64, 11};
  GemmScheduleConfig config = DefaultGemmConfig(1, s.m, s.n, s.k, Avx2Cpu());
  config.pack_weight_at_block = false;
  te::Tensor a = Placeholder({s.m, s.k}, "A"), b = Placeholder({s.k, s.n}, "B");
  te::Tensor bias = Placeholder({s.n}, "bias");
  runtime::NDArray da = RandomArray({s.m, s.k}, 1), db = RandomArray({s.k, s.n}, 2);
  runtime::NDArray dbias = RandomArray({s.n}, 3);
  std::vector<float> want = ReferenceGemm(da, db, s, false);
  for (int64_t i = 0; i < s.m * s.n; ++i) {
    want[i] = std::max(0.0f, want[i] + testing::Data(dbias)[i % s.n]);
  }
  auto epilogue_of = [&](const te::Tensor& c) {
    return te::compute(
        c.shape(),
        [&](const std::vector<ir::Var>& i) {
          return ir::Max(c({i[0], i[1]}) + bias({i[1]}), ir::MakeZero(c.dtype()));
        },
        "epilogue");
  };
  // Packed in the kernel.
  absl::StatusOr<GemmTensors> t = MatmulCompute(a, b, config.Layout());
  ASSERT_TRUE(t.ok()) << t.status();
  absl::StatusOr<te::Tensor> out = epilogue_of(t->c);
  ASSERT_TRUE(out.ok()) << out.status();
  absl::StatusOr<ScheduledOp> scheduled = ScheduleGemm(config, *t, *out);
  ASSERT_TRUE(scheduled.ok()) << scheduled.status();
  scheduled->args.insert(scheduled->args.end() - 1, bias);
  runtime::NDArray dc = OutputArray({s.m, s.n});
  ASSERT_TRUE(testing::RunOn(GetParam(), *scheduled, {&da, &db, &dbias, &dc}).ok());
  EXPECT_TRUE(AllClose(dc, want, kGemmAtol, kGemmRtol));
  // Packed beforehand: the kernel reads [N/bn][K][bn].
  const int64_t bn = config.reg_n();
  te::Tensor packed = Placeholder({s.n / bn, s.k, bn}, "P");
  absl::StatusOr<GemmTensors> tp = PackedMatmulCompute(a, packed);
  ASSERT_TRUE(tp.ok()) << tp.status();
  absl::StatusOr<te::Tensor> out_p = epilogue_of(tp->c);
  ASSERT_TRUE(out_p.ok());
  absl::StatusOr<ScheduledOp> scheduled_p = ScheduleGemm(config, *tp, *out_p);
  ASSERT_TRUE(scheduled_p.ok()) << scheduled_p.status();
  scheduled_p->args = {a, packed, bias, *out_p};
  runtime::NDArray dp = OutputArray({s.n / bn, s.k, bn});
  for (int64_t nb = 0; nb < s.n / bn; ++nb) {
    for (int64_t k = 0; k < s.k; ++k) {
      for (int64_t j = 0; j < bn; ++j) {
        static_cast<float*>(dp.data())[(nb * s.k + k) * bn + j] =
            testing::Data(db)[k * s.n + nb * bn + j];
      }
    }
  }
  runtime::NDArray dcp = OutputArray({s.m, s.n});
  ASSERT_TRUE(testing::RunOn(GetParam(), *scheduled_p, {&da, &dp, &dbias, &dcp}).ok());
  EXPECT_TRUE(AllClose(dcp, want, kGemmAtol, kGemmRtol));
}

TEST(GemmErrorTest, ShapesThatDisagreeNameTheOpAndShapes) {
  te::Tensor a = Placeholder({4, 5}, "A"), b = Placeholder({6, 7}, "B");
  absl::StatusOr<GemmTensors> t = MatmulCompute(a, b);
  ASSERT_FALSE(t.ok());
  EXPECT_EQ(t.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(std::string(t.status().message()), ::testing::HasSubstr("matmul: shapes 4x5"));
  EXPECT_THAT(std::string(t.status().message()), ::testing::HasSubstr("6x7"));
}

TEST(GemmErrorTest, SymbolicShapeIsAnError) {
  te::Tensor a = te::placeholder({te::var("m"), 5}, ir::DataType::Float(32), "A");
  absl::StatusOr<GemmTensors> t = DenseCompute(a, Placeholder({3, 5}, "W"));
  ASSERT_FALSE(t.ok());
  EXPECT_THAT(std::string(t.status().message()), ::testing::HasSubstr("symbolic extent m"));
}

TEST(GemmErrorTest, LayoutMustMatchTheConfig) {
  GemmScheduleConfig config;
  absl::StatusOr<GemmTensors> t =
      MatmulCompute(Placeholder({4, 5}, "A"), Placeholder({5, 6}, "B"), GemmLayout{8, 0});
  ASSERT_TRUE(t.ok());
  absl::StatusOr<ScheduledOp> s = ScheduleMatmul(config, *t);
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.status().code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_THAT(std::string(s.status().message()), ::testing::HasSubstr("(weight 8, input 0)"));
}

TEST(GemmErrorTest, InvalidConfigFieldIsNamed) {
  GemmScheduleConfig config;
  config.reg_m = 0;
  absl::StatusOr<GemmTensors> t =
      MatmulCompute(Placeholder({4, 5}, "A"), Placeholder({5, 6}, "B"), config.Layout());
  ASSERT_TRUE(t.ok());
  absl::StatusOr<ScheduledOp> s = ScheduleMatmul(config, *t);
  ASSERT_FALSE(s.ok());
  EXPECT_THAT(std::string(s.status().message()), ::testing::HasSubstr("reg_m = 0"));
}

int64_t CeilDivForTest(int64_t a, int64_t b) { return (a + b - 1) / b; }

TEST(GemmDefaultConfigTest, RegisterTileFitsTheRegisters) {
  GemmScheduleConfig avx2 = DefaultMatmulConfig(1024, 1024, 1024, Avx2Cpu());
  EXPECT_EQ(avx2.vector_lanes, 8);
  EXPECT_LE(avx2.reg_m * avx2.reg_n_vectors + avx2.reg_n_vectors + 1, 16);
  EXPECT_GE(avx2.reg_m * avx2.reg_n_vectors, 8);  // enough accumulators to hide FMA latency
  EXPECT_EQ(avx2.tile_n % avx2.reg_n(), 0);
  EXPECT_TRUE(avx2.pack_weight);
  EXPECT_TRUE(avx2.pack_weight_at_block);  // 16 column blocks for 2 cores
  EXPECT_TRUE(avx2.parallel);

  GemmScheduleConfig gemv = DefaultMatmulConfig(1, 1000, 2048, Avx2Cpu());
  EXPECT_FALSE(gemv.pack_weight);
  EXPECT_EQ(gemv.accumulator, GemmAccumulator::kCacheBlock);
  EXPECT_GE(CeilDivForTest(1000, gemv.tile_n), 2);                        // a block per core
  EXPECT_TRUE(DefaultDenseConfig(1, 1000, 2048, Avx2Cpu()).pack_weight);  // W[N][K] needs it
}

}  // namespace
}  // namespace tunefarm::topi
