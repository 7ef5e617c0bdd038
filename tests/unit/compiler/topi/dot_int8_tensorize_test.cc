// tensorize with the int8 dot-product intrinsic: an int8 matmul with B packed [N/L, K/4, L, 4]
// computes what the naive int32 triple loop does on every backend (interpreter, JIT, library),
// the emitted code uses VNNI's vpdpbusd or AArch64's sdot/udot where the target has them, and
// every mismatch (extent, stride, dtype, expression, a partial block) is refused naming it.
#include <fstream>
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <random>
#include <unistd.h>

#include "compiler/intrin/dot_int8.h"
#include "compiler/ir/op.h"
#include "compiler/ir/printer.h"
#include "tests/unit/compiler/topi/topi_harness.h"

#ifndef TUNEFARM_LLVM_OBJDUMP
#define TUNEFARM_LLVM_OBJDUMP ""
#endif

namespace tunefarm::topi {
namespace {

using testing::BackendCase;
using ::testing::HasSubstr;

const ir::DataType kU8 = ir::DataType::UInt(8), kI8 = ir::DataType::Int(8),
                   kI32 = ir::DataType::Int(32);

struct Matmul {
  int m, n, k, lanes;
  ir::DataType a_dtype = ir::DataType::UInt(8);
  ir::DataType b_dtype = ir::DataType::Int(8);
};

// C[m, n] = sum_k int32(A[m, k]) * int32(Bp[n / L, k / 4, n % L, k % 4]).
struct Int8Matmul {
  te::Tensor a, b, c;
};

Int8Matmul Declare(const Matmul& s, bool packed = true) {
  Int8Matmul w;
  w.a = te::placeholder({s.m, s.k}, s.a_dtype, "A");
  w.b = packed ? te::placeholder({s.n / s.lanes, s.k / 4, s.lanes, 4}, s.b_dtype, "Bp")
               : te::placeholder({s.n, s.k}, s.b_dtype, "B");
  ir::IterVar k = te::reduce_axis(ir::Range{0, s.k}, "k");
  w.c = *te::compute(
      {s.m, s.n},
      [&](const std::vector<ir::Var>& i) {
        ir::Expr b = packed ? w.b({ir::FloorDiv(i[1], s.lanes), ir::FloorDiv(k->var, 4),
                                   ir::FloorMod(i[1], s.lanes), ir::FloorMod(k->var, 4)})
                            : w.b({i[1], k->var});
        return te::sum(ir::Cast(kI32, w.a({i[0], k->var})) * ir::Cast(kI32, b), {k});
      },
      "C");
  return w;
}

// m, n.outer, k.outer, n.inner, k.inner with the intrinsic at n.inner (k whole when k_factor is
// 0: the reduction then lies entirely inside the intrinsic).
ScheduledOp Tensorized(const Int8Matmul& w, int n_factor, int k_factor,
                       const schedule::TensorIntrin& intrin) {
  schedule::Schedule s = schedule::Schedule::Create({w.c.op()});
  schedule::Stage& st = s[w.c];
  ir::IterVar m = st.op()->axis[0], n = st.op()->axis[1], k = st.op()->reduce_axis[0];
  ir::IterVar no, ni, ko, ki;
  st.split(n, n_factor, &no, &ni);
  if (k_factor > 0) {
    st.split(k, k_factor, &ko, &ki);
    st.reorder({m, no, ko, ni, ki});
  } else {
    st.reorder({m, no, ni, k});
  }
  st.tensorize(ni, intrin);
  return {s, {w.a, w.b, w.c}};
}

runtime::NDArray Bytes(const std::vector<int64_t>& shape, ir::DataType t, uint64_t seed) {
  runtime::NDArray a = *runtime::NDArray::Empty(shape, *runtime::ParseDataType(t.ToString()));
  std::mt19937_64 rng(seed);
  // The extremes included: 255 * -128 summed is what a wrong widening would get wrong.
  std::uniform_int_distribution<int> dist(t.is_uint() ? 0 : -128, t.is_uint() ? 255 : 127);
  auto* p = static_cast<uint8_t*>(a.data());
  for (int64_t i = 0; i < a.NumElements(); ++i) p[i] = static_cast<uint8_t>(dist(rng));
  if (a.NumElements() > 1) p[0] = t.is_uint() ? 255 : 0x80;
  return a;
}

int ByteValue(const runtime::NDArray& a, int64_t i, ir::DataType t) {
  const uint8_t v = static_cast<const uint8_t*>(a.data())[i];
  return t.is_uint() ? v : static_cast<int8_t>(v);
}

// The naive loop over A [M, K] and B read as [N, K] from the packed array.
std::vector<int32_t> Reference(const Matmul& s, const runtime::NDArray& a,
                               const runtime::NDArray& bp) {
  std::vector<int32_t> c(static_cast<size_t>(s.m) * s.n);
  for (int i = 0; i < s.m; ++i) {
    for (int j = 0; j < s.n; ++j) {
      int64_t acc = 0;
      for (int k = 0; k < s.k; ++k) {
        const int64_t bi =
            ((static_cast<int64_t>(j / s.lanes) * (s.k / 4) + k / 4) * s.lanes + j % s.lanes) * 4 +
            k % 4;
        acc += ByteValue(a, static_cast<int64_t>(i) * s.k + k, s.a_dtype) *
               ByteValue(bp, bi, s.b_dtype);
      }
      c[static_cast<size_t>(i) * s.n + j] = static_cast<int32_t>(acc);
    }
  }
  return c;
}

void ExpectMatches(const BackendCase& backend, const Matmul& s, int k_factor) {
  schedule::TensorIntrin dot = *intrin::DotInt8Intrin(s.lanes, s.a_dtype, s.b_dtype);
  const Int8Matmul w = Declare(s);
  runtime::NDArray a = Bytes({s.m, s.k}, s.a_dtype, 1);
  runtime::NDArray b = Bytes({s.n / s.lanes, s.k / 4, s.lanes, 4}, s.b_dtype, 2);
  runtime::NDArray c = *runtime::NDArray::Empty({s.m, s.n}, *runtime::ParseDataType("int32"));
  std::fill_n(static_cast<int32_t*>(c.data()), c.NumElements(), 0x5a5a5a5a);
  absl::Status st = testing::RunOn(backend, Tensorized(w, s.lanes, k_factor, dot), {&a, &b, &c});
  ASSERT_TRUE(st.ok()) << st;
  const std::vector<int32_t> want = Reference(s, a, b);
  const auto* got = static_cast<const int32_t*>(c.data());
  for (size_t i = 0; i < want.size(); ++i) {
    ASSERT_EQ(got[i], want[i]) << "element " << i << " of " << dot->name;
  }
}

class DotInt8TensorizeTest : public ::testing::TestWithParam<BackendCase> {};

TEST_P(DotInt8TensorizeTest, UnsignedBySignedSixteenLanesMatchesTheNaiveLoop) {
  ExpectMatches(GetParam(), {.m = 5, .n = 32, .k = 40, .lanes = 16}, 4);
}

TEST_P(DotInt8TensorizeTest, OtherLaneCountsAndSignednessesMatch) {
  ExpectMatches(GetParam(), {.m = 2, .n = 3, .k = 8, .lanes = 1}, 4);
  ExpectMatches(GetParam(), {.m = 3, .n = 8, .k = 12, .lanes = 4}, 4);
  ExpectMatches(GetParam(), {.m = 3, .n = 16, .k = 8, .lanes = 8, .a_dtype = kI8}, 4);
  ExpectMatches(GetParam(), {.m = 2, .n = 8, .k = 8, .lanes = 8, .a_dtype = kU8, .b_dtype = kU8},
                4);
}

TEST_P(DotInt8TensorizeTest, AReductionWhollyInsideTheIntrinsicStartsFromZero) {
  ExpectMatches(GetParam(), {.m = 4, .n = 32, .k = 4, .lanes = 16}, 0);
}

INSTANTIATE_TEST_SUITE_P(Backends, DotInt8TensorizeTest,
                         ::testing::ValuesIn(testing::AllBackends()), testing::BackendName);

TEST(DotInt8TensorizeLoweringTest, TheLoweredLoopNestCallsTheIntrinsicOncePerBlock) {
  const Matmul s{.m = 2, .n = 32, .k = 8, .lanes = 16};
  ScheduledOp op = Tensorized(Declare(s), 16, 4, *intrin::DotInt8Intrin(16, kU8, kI8));
  absl::StatusOr<ir::PrimFunc> f = passes::Lower(op.schedule, op.args, "mm");
  ASSERT_TRUE(f.ok()) << f.status();
  const std::string text = ir::ToString(f->body);
  EXPECT_THAT(text, HasSubstr("dot4_add("));
  // No loop is left over n.inner or k.inner: they are the intrinsic's.
  EXPECT_THAT(text, ::testing::Not(HasSubstr("for (n.inner")));
  EXPECT_THAT(text, ::testing::Not(HasSubstr("for (k.inner")));
}

absl::Status LowerError(const ScheduledOp& op) {
  absl::StatusOr<ir::PrimFunc> f = passes::Lower(op.schedule, op.args, "mm");
  return f.ok() ? absl::OkStatus() : f.status();
}

TEST(DotInt8TensorizeErrorsTest, ABlockOfTheWrongExtentIsRefused) {
  const Matmul s{.m = 2, .n = 32, .k = 8, .lanes = 16};
  absl::Status st = LowerError(Tensorized(Declare(s), 8, 4, *intrin::DotInt8Intrin(16, kU8, kI8)));
  EXPECT_THAT(st.message(), HasSubstr("has extent 8 where the intrinsic's axis"));
  EXPECT_THAT(st.message(), HasSubstr("dot_4x16_u8i8"));
}

TEST(DotInt8TensorizeErrorsTest, AnUnpackedWeightIsAWrongStride) {
  const Matmul s{.m = 2, .n = 32, .k = 8, .lanes = 16};
  absl::Status st = LowerError(
      Tensorized(Declare(s, /*packed=*/false), 16, 4, *intrin::DotInt8Intrin(16, kU8, kI8)));
  EXPECT_THAT(st.message(), HasSubstr("one contiguous 16x4 block"));
  EXPECT_THAT(st.message(), HasSubstr("wrong stride"));
}

TEST(DotInt8TensorizeErrorsTest, AnOperandOfTheWrongTypeIsRefused) {
  const Matmul s{.m = 2, .n = 32, .k = 8, .lanes = 16, .a_dtype = kI8};
  absl::Status st = LowerError(Tensorized(Declare(s), 16, 4, *intrin::DotInt8Intrin(16, kU8, kI8)));
  EXPECT_THAT(st.message(), HasSubstr("reads A as int8 where the intrinsic reads a as uint8"));
}

TEST(DotInt8TensorizeErrorsTest, ADifferentComputationIsRefused) {
  const Matmul s{.m = 2, .n = 16, .k = 8, .lanes = 16};
  te::Tensor a = te::placeholder({s.m, s.k}, kU8, "A");
  te::Tensor b = te::placeholder({1, 2, 16, 4}, kI8, "Bp");
  ir::IterVar k = te::reduce_axis(ir::Range{0, s.k}, "k");
  te::Tensor c = *te::compute(
      {s.m, s.n},
      [&](const std::vector<ir::Var>& i) {
        ir::Expr bv = b({0, ir::FloorDiv(k->var, 4), i[1], ir::FloorMod(k->var, 4)});
        return te::sum(ir::Cast(kI32, a({i[0], k->var})) + ir::Cast(kI32, bv), {k});
      },
      "C");
  absl::Status st = LowerError(Tensorized({a, b, c}, 16, 4, *intrin::DotInt8Intrin(16, kU8, kI8)));
  EXPECT_THAT(st.message(), HasSubstr("the stage computes"));
  EXPECT_THAT(st.message(), HasSubstr("where the intrinsic computes"));
}

TEST(DotInt8TensorizeErrorsTest, APartialBlockAtTheEdgeIsRefused) {
  // n = 40 in blocks of 16: the last block would need a guard inside the intrinsic.
  te::Tensor a = te::placeholder({2, 8}, kU8, "A");
  te::Tensor b = te::placeholder({40, 8}, kI8, "B");
  ir::IterVar k = te::reduce_axis(ir::Range{0, 8}, "k");
  te::Tensor c = *te::compute(
      {2, 40},
      [&](const std::vector<ir::Var>& i) {
        return te::sum(ir::Cast(kI32, a({i[0], k->var})) * ir::Cast(kI32, b({i[1], k->var})), {k});
      },
      "C");
  absl::Status st = LowerError(Tensorized({a, b, c}, 16, 4, *intrin::DotInt8Intrin(16, kU8, kI8)));
  EXPECT_THAT(st.message(), HasSubstr("does not divide"));
}

TEST(DotInt8TensorizeErrorsTest, BadDeclarationsAndASecondTensorizedAxisAreRefused) {
  EXPECT_FALSE(intrin::DotInt8Intrin(12, kU8, kI8).ok());
  EXPECT_THAT(intrin::DotInt8Intrin(16, ir::DataType::Float(32), kI8).status().message(),
              HasSubstr("int8 or uint8"));
  const Matmul s{.m = 2, .n = 32, .k = 8, .lanes = 16};
  const Int8Matmul w = Declare(s);
  schedule::Schedule sch = schedule::Schedule::Create({w.c.op()});
  schedule::Stage& st = sch[w.c];
  schedule::TensorIntrin dot = *intrin::DotInt8Intrin(16, kU8, kI8);
  st.tensorize(st.op()->axis[0], dot).tensorize(st.op()->axis[1], dot);
  EXPECT_THAT(sch.error().message(), HasSubstr("another axis is already tensorized"));
}

// The instructions a target's code holds, from llvm-objdump of an exported library.
std::string Disassembly(const std::string& target_text, const ScheduledOp& op) {
  absl::StatusOr<codegen::LlvmTarget> target = codegen::ParseLlvmTarget(target_text);
  EXPECT_TRUE(target.ok()) << target.status();
  passes::PassOptions options;
  options.target = passes::LoweringTarget::kLlvm;
  absl::StatusOr<ir::PrimFunc> f = passes::Lower(op.schedule, op.args, "mm", options);
  EXPECT_TRUE(f.ok()) << f.status();
  const std::string lib = absl::StrCat(::testing::TempDir(), "dot_int8_", getpid(), ".so");
  const std::string listing = lib + ".txt";
  absl::Status st = codegen::ExportLibrary({*f}, *target, lib);
  EXPECT_TRUE(st.ok()) << st;
  const std::string command =
      absl::StrCat(TUNEFARM_LLVM_OBJDUMP, " -d --no-show-raw-insn ", lib, " > ", listing);
  EXPECT_EQ(std::system(command.c_str()), 0) << command;
  std::ifstream in(listing);
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  std::remove(lib.c_str());
  std::remove(listing.c_str());
  return text;
}

TEST(DotInt8TensorizeCodeTest, EachTargetGetsItsOwnDotInstructionOrNone) {
  if (access(TUNEFARM_LLVM_OBJDUMP, X_OK) != 0) GTEST_SKIP() << "no llvm-objdump here";
  const Matmul s{.m = 2, .n = 32, .k = 8, .lanes = 16};
  ScheduledOp x86 = Tensorized(Declare(s), 16, 4, *intrin::DotInt8Intrin(16, kU8, kI8));
  EXPECT_THAT(Disassembly("llvm -mtriple=x86_64-linux-gnu -mcpu=x86-64 "
                          "-mattr=+avx512f,+avx512bw,+avx512vl,+avx512vnni",
                          x86),
              HasSubstr("vpdpbusd"));
  // Without VNNI the same schedule still builds, from widened multiply-adds.
  EXPECT_THAT(Disassembly("llvm -mtriple=x86_64-linux-gnu -mcpu=x86-64 -mattr=+avx2,+fma", x86),
              ::testing::Not(HasSubstr("vpdpbusd")));
  const Matmul arm{.m = 2, .n = 16, .k = 8, .lanes = 4, .a_dtype = kI8};
  ScheduledOp sdot = Tensorized(Declare(arm), 4, 4, *intrin::DotInt8Intrin(4, kI8, kI8));
  EXPECT_THAT(Disassembly("llvm -mtriple=aarch64-linux-gnu -mattr=+neon,+dotprod", sdot),
              HasSubstr("sdot"));
}

}  // namespace
}  // namespace tunefarm::topi
