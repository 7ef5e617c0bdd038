// The int8 dense template: every config (lanes, tile, k unrolling) computes, on every backend,
// exactly what the naive int32 loop does, including shapes whose M and N are not multiples of
// the tile; bad shapes and dtypes are refused naming them.
#include "compiler/topi/dense_int8.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <random>

#include "tests/unit/compiler/topi/topi_harness.h"

namespace tunefarm::topi {
namespace {

using testing::BackendCase;
using ::testing::HasSubstr;

struct Case {
  int64_t m, n, k;
  DenseInt8Config config;
};

std::vector<uint8_t> RandomBytes(size_t count, uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::uniform_int_distribution<int> dist(0, 255);
  std::vector<uint8_t> v(count);
  for (uint8_t& x : v) x = static_cast<uint8_t>(dist(rng));
  if (!v.empty()) v[0] = 255;  // the extremes: 255 * -128
  return v;
}

runtime::NDArray Array(const std::vector<int64_t>& shape, const char* dtype, const void* data) {
  runtime::NDArray a = *runtime::NDArray::Empty(shape, *runtime::ParseDataType(dtype));
  const size_t bytes =
      static_cast<size_t>(a.NumElements()) * (std::string(dtype) == "int32" ? 4 : 1);
  if (data != nullptr) std::memcpy(a.data(), data, bytes);
  return a;
}

void ExpectExact(const BackendCase& backend, const Case& c) {
  const DenseInt8Config& cfg = c.config;
  const std::vector<uint8_t> a = RandomBytes(static_cast<size_t>(c.m * c.k), 1);
  std::vector<int8_t> w(static_cast<size_t>(c.n * c.k));
  const std::vector<uint8_t> wb = RandomBytes(w.size(), 2);
  for (size_t i = 0; i < w.size(); ++i) w[i] = static_cast<int8_t>(wb[i]);
  w[0] = -128;
  const std::vector<int8_t> packed = PackDenseInt8Weight(w.data(), c.n, c.k, cfg.lanes);
  const int64_t blocks = (c.n + cfg.lanes - 1) / cfg.lanes;

  te::Tensor ta =
      te::placeholder({static_cast<int>(c.m), static_cast<int>(c.k)}, ir::DataType::UInt(8), "A");
  te::Tensor tw = te::placeholder(
      {static_cast<int>(blocks), static_cast<int>(c.k / 4), static_cast<int>(cfg.lanes), 4},
      ir::DataType::Int(8), "Wp");
  absl::StatusOr<DenseInt8Tensors> t = DenseInt8Compute(ta, tw, c.n);
  ASSERT_TRUE(t.ok()) << t.status();
  absl::StatusOr<ScheduledOp> op = ScheduleDenseInt8(cfg, *t);
  ASSERT_TRUE(op.ok()) << op.status();
  runtime::NDArray na = Array({c.m, c.k}, "uint8", a.data());
  runtime::NDArray nw = Array({blocks, c.k / 4, cfg.lanes, 4}, "int8", packed.data());
  runtime::NDArray nc = Array({c.m, c.n}, "int32", nullptr);
  std::fill_n(static_cast<int32_t*>(nc.data()), nc.NumElements(), 0x5a5a5a5a);
  absl::Status st = testing::RunOn(backend, *op, {&na, &nw, &nc});
  ASSERT_TRUE(st.ok()) << st;
  const auto* got = static_cast<const int32_t*>(nc.data());
  for (int64_t i = 0; i < c.m; ++i) {
    for (int64_t j = 0; j < c.n; ++j) {
      int64_t want = 0;
      for (int64_t k = 0; k < c.k; ++k) want += int64_t{a[i * c.k + k]} * w[j * c.k + k];
      ASSERT_EQ(got[i * c.n + j], static_cast<int32_t>(want))
          << "C[" << i << ", " << j << "] of " << c.m << "x" << c.n << "x" << c.k << " with "
          << cfg.ToString();
    }
  }
}

class DenseInt8Test : public ::testing::TestWithParam<BackendCase> {};

TEST_P(DenseInt8Test, EveryConfigMatchesTheNaiveLoopExactly) {
  const std::vector<Case> cases = {
      {1, 1000, 64, {.lanes = 16, .reg_m = 1, .reg_n_vectors = 2}},
      {5, 48, 36, {.lanes = 16, .reg_m = 4, .reg_n_vectors = 2, .unroll_k = 2}},
      {7, 20, 24, {.lanes = 8, .reg_m = 3, .reg_n_vectors = 1, .unroll_k = 4}},
      {4, 12, 16, {.lanes = 4, .reg_m = 2, .reg_n_vectors = 3, .parallel = false}},
  };
  for (const Case& c : cases) {
    ExpectExact(GetParam(), c);
    if (HasFatalFailure()) return;
  }
}

INSTANTIATE_TEST_SUITE_P(Backends, DenseInt8Test, ::testing::ValuesIn(testing::AllBackends()),
                         testing::BackendName);

TEST(DenseInt8ComputeTest, ShapesAndDtypesThatDoNotFitAreRefused) {
  te::Tensor a = te::placeholder({2, 6}, ir::DataType::UInt(8), "A");
  te::Tensor w = te::placeholder({1, 1, 16, 4}, ir::DataType::Int(8), "W");
  EXPECT_THAT(DenseInt8Compute(a, w, 16).status().message(),
              HasSubstr("K must be a multiple of 4"));
  te::Tensor signed_a = te::placeholder({2, 4}, ir::DataType::Int(8), "A");
  EXPECT_THAT(DenseInt8Compute(signed_a, w, 16).status().message(),
              HasSubstr("the input must be uint8"));
  te::Tensor a4 = te::placeholder({2, 4}, ir::DataType::UInt(8), "A");
  absl::StatusOr<DenseInt8Tensors> t = DenseInt8Compute(a4, w, 16);
  ASSERT_TRUE(t.ok()) << t.status();
  EXPECT_THAT(ScheduleDenseInt8({.lanes = 8}, *t).status().message(),
              HasSubstr("packed for 16 lanes"));
}

TEST(DenseInt8ComputeTest, TheDefaultConfigFollowsTheVectorWidth) {
  CpuInfo avx512;
  avx512.vector_bits = 512;
  CpuInfo neon;
  neon.vector_bits = 128;
  EXPECT_EQ(DefaultDenseInt8Config(1, 1000, 512, avx512).lanes, 16);
  EXPECT_EQ(DefaultDenseInt8Config(1, 1000, 512, avx512).reg_m, 1);
  EXPECT_EQ(DefaultDenseInt8Config(64, 8, 512, neon).lanes, 4);
  EXPECT_EQ(DefaultDenseInt8Config(64, 8, 512, neon).reg_n_vectors, 2);
}

}  // namespace
}  // namespace tunefarm::topi
