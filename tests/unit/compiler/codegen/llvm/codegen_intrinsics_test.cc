// Calls through the JIT against the interpreter: every math intrinsic in float32 and float64,
// scalar and vector; if_then_else evaluates only the chosen side (scalar and masked vector forms);
// sync_threads is rejected on a CPU.
#include <cmath>
#include <cstring>
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "tests/unit/compiler/codegen/llvm/codegen_test_util.h"

namespace tunefarm::codegen {
namespace {

using namespace testing;  // NOLINT
using ir::DataType;
using ir::Expr;
using ir::Intrinsic;

constexpr int64_t kIntrinsicLength = 64;

void CheckMath(Intrinsic op, DataType t, int lanes) {
  SCOPED_TRACE(absl::StrCat(ir::IntrinsicName(op), " ", t.ToString(), " x", lanes));
  ir::Buffer a("A", t, {static_cast<int>(kIntrinsicLength)}),
      b("B", t, {static_cast<int>(kIntrinsicLength)});
  ir::Buffer c("C", t, {static_cast<int>(kIntrinsicLength)});
  ir::Var i("i", kI32);
  Expr index = lanes == 1 ? Expr(i) : ir::RampNode::Make(i * lanes, 1, lanes);
  std::vector<Expr> args = {At(a, index)};
  if (op == Intrinsic::kPow) args.push_back(At(b, index));
  ir::Stmt store = ir::StoreNode::Make(c->data, ir::Call(op, args), index);
  ir::PrimFunc f{"math",
                 {a, b, c},
                 ir::ForNode::Make(i, 0, static_cast<int>(kIntrinsicLength / lanes),
                                   ir::ForKind::kSerial, store)};
  runtime::NDArray av = MakeArray(t, {kIntrinsicLength}), bv = MakeArray(t, {kIntrinsicLength}),
                   cv = MakeArray(t, {kIntrinsicLength});
  // Each function's domain (and tan away from its poles).
  double lo = -6, hi = 6;
  if (op == Intrinsic::kLog || op == Intrinsic::kSqrt || op == Intrinsic::kPow) lo = 0.01;
  if (op == Intrinsic::kAsin || op == Intrinsic::kAcos || op == Intrinsic::kAtanh)
    lo = -0.99, hi = 0.99;
  if (op == Intrinsic::kTan) lo = -1.4, hi = 1.4;
  if (op == Intrinsic::kAcosh) lo = 1;
  Fill(av, 11, lo, hi);
  Fill(bv, 12, -3, 3);
  // float32 math may differ from the interpreter's double-then-round by a few ulps.
  ExpectMatchesInterpreter(f, {&av, &bv, &cv}, t.bits() == 32 ? 4e-6 : 1e-13, 1e-7);
}

TEST(CodegenIntrinsicsTest, MathFunctionsMatchTheInterpreter) {
  for (Intrinsic op : {Intrinsic::kExp,     Intrinsic::kLog,  Intrinsic::kSqrt,  Intrinsic::kTanh,
                       Intrinsic::kSigmoid, Intrinsic::kFabs, Intrinsic::kPow,   Intrinsic::kFloor,
                       Intrinsic::kCeil,    Intrinsic::kErf,  Intrinsic::kRound, Intrinsic::kSin,
                       Intrinsic::kCos,     Intrinsic::kTan,  Intrinsic::kSinh,  Intrinsic::kCosh,
                       Intrinsic::kAsin,    Intrinsic::kAcos, Intrinsic::kAtan,  Intrinsic::kAsinh,
                       Intrinsic::kAcosh,   Intrinsic::kAtanh}) {
    for (DataType t : {kF32, kF64}) {
      for (int lanes : {1, 8}) CheckMath(op, t, lanes);
    }
  }
}

// `op` over 16-lane float vectors of `inputs` (padded to whole vectors) within 2 ulps of
// `reference` (the C library's), NaN where it is NaN.
void ExpectVectorWithinTwoUlps(Intrinsic op, std::vector<float> inputs, float (*reference)(float)) {
  while (inputs.size() % 16 != 0) inputs.push_back(0.5f);
  const int64_t length = static_cast<int64_t>(inputs.size());
  ir::Buffer a("A", kF32, {static_cast<int>(length)}), c("C", kF32, {static_cast<int>(length)});
  ir::Var i("i", kI32);
  Expr lanes = ir::RampNode::Make(i * 16, 1, 16);
  ir::Stmt store = ir::StoreNode::Make(c->data, ir::Call(op, {At(a, lanes)}), lanes);
  ir::PrimFunc f{
      "vector16",
      {a, c},
      ir::ForNode::Make(i, 0, static_cast<int>(length / 16), ir::ForKind::kSerial, store)};
  runtime::NDArray av = MakeArray(kF32, {length}), cv = MakeArray(kF32, {length});
  for (int64_t k = 0; k < length; ++k) SetElement(av, k, inputs[k]);
  ASSERT_TRUE(RunJit(f, {&av, &cv}).ok());
  const std::string name = ir::IntrinsicName(op);
  for (int64_t k = 0; k < length; ++k) {
    const float want = reference(inputs[k]);
    const float got = static_cast<float>(ElementAt(cv, k));
    if (std::isnan(want)) {
      EXPECT_TRUE(std::isnan(got)) << name << "(" << inputs[k] << ")";
      continue;
    }
    int32_t wi, gi;
    std::memcpy(&wi, &want, 4);
    std::memcpy(&gi, &got, 4);
    EXPECT_LE(std::abs(static_cast<int64_t>(wi) - gi), 2)
        << name << "(" << inputs[k] << "): got " << got << ", want " << want;
  }
}

// Float vectors compute e^x with their own code (EmitExp): within 2 ulps of the C library over
// the whole float range, inf and 0 past it, subnormal results, and NaN through.
TEST(CodegenIntrinsicsTest, VectorExpIsWithinTwoUlpsOfTheLibraryEverywhere) {
  std::vector<float> inputs = {0.0f,    -0.0f,    1.0f,    -1.0f,    1e-30f,    -1e-30f,
                               0.3465f, -0.3467f, 88.72f,  88.73f,   100.0f,    -87.3f,
                               -100.0f, -103.9f,  -110.0f, INFINITY, -INFINITY, NAN};
  for (int i = 0; i < 4000; ++i) inputs.push_back(-104.0f + 193.0f * i / 4000.0f);
  ExpectVectorWithinTwoUlps(Intrinsic::kExp, std::move(inputs),
                            [](float x) { return std::exp(x); });
}

// Float vectors compute erf with their own code (EmitErf): within 2 ulps of the C library's erf
// (the relative error at x near 0), exactly 1 past 3.92, odd, and NaN through.
TEST(CodegenIntrinsicsTest, VectorErfIsWithinTwoUlpsOfTheLibrary) {
  std::vector<float> inputs = {0.0f,   -0.0f,     1e-30f,    -1e-30f, 1e-6f, 0.999999f,
                               1.0f,   1.000001f, 3.91f,     3.92f,   3.93f, 10.0f,
                               -10.0f, INFINITY,  -INFINITY, NAN};
  for (int i = 0; i < 8000; ++i) inputs.push_back(-5.0f + 10.0f * i / 8000.0f);
  ExpectVectorWithinTwoUlps(Intrinsic::kErf, std::move(inputs), [](float x) {
    return static_cast<float>(std::erf(static_cast<double>(x)));
  });
}

// An eager evaluation of the false side would divide by zero, which traps on x86.
TEST(CodegenIntrinsicsTest, IfThenElseEvaluatesOnlyTheChosenSide) {
  ir::Buffer a("A", kI32, {16}), b("B", kI32, {16}), c("C", kI32, {16});
  ir::PrimFunc scalar = OneLoop("lazy", {a, b}, c, 16, [&](ir::Var i) {
    return ir::IfThenElse(At(b, i) != 0, ir::TruncDiv(At(a, i), At(b, i)), Expr(-1));
  });
  ir::Var i("i", kI32);
  Expr lanes = ir::RampNode::Make(i * 8, 1, 8);
  Expr vector_value =
      ir::IfThenElse(At(b, lanes) != ir::BroadcastNode::Make(0, 8),
                     ir::TruncDiv(At(a, lanes), At(b, lanes)), ir::BroadcastNode::Make(-1, 8));
  ir::PrimFunc vector{"lazy_vector",
                      {a, b, c},
                      ir::ForNode::Make(i, 0, 2, ir::ForKind::kSerial,
                                        ir::StoreNode::Make(c->data, vector_value, lanes))};
  for (const ir::PrimFunc& f : {scalar, vector}) {
    runtime::NDArray av = MakeArray(kI32, {16}), bv = MakeArray(kI32, {16}),
                     cv = MakeArray(kI32, {16});
    Fill(av, 13, -100, 100);
    Fill(bv, 14, -3, 3);
    SetElement(bv, 3, 0);
    SetElement(bv, 12, 0);
    ExpectMatchesInterpreter(f, {&av, &bv, &cv});
  }
}

// Padding: if_then_else guards a read that would fall outside A; under a vector condition the
// read becomes a masked load, so the interpreter (which bounds-checks) and the JIT agree.
TEST(CodegenIntrinsicsTest, VectorIfThenElseMasksItsLoads) {
  ir::Buffer a("A", kF32, {12}), c("C", kF32, {16});
  ir::Var i("i", kI32);
  Expr lanes = ir::RampNode::Make(i * 8, 1, 8);
  Expr value = ir::IfThenElse(lanes < ir::BroadcastNode::Make(12, 8), At(a, lanes),
                              ir::BroadcastNode::Make(0.0f, 8));
  ir::PrimFunc f{
      "pad",
      {a, c},
      ir::ForNode::Make(i, 0, 2, ir::ForKind::kSerial, ir::StoreNode::Make(c->data, value, lanes))};
  runtime::NDArray av = MakeArray(kF32, {12}), cv = MakeArray(kF32, {16});
  Fill(av, 15);
  ExpectMatchesInterpreter(f, {&av, &cv});
}

TEST(CodegenIntrinsicsTest, SyncThreadsIsAnErrorOnACpu) {
  ir::Buffer c("C", kF32, {1});
  ir::PrimFunc f{"barrier", {c}, ir::EvaluateNode::Make(ir::Call(Intrinsic::kSyncThreads, {}))};
  absl::StatusOr<std::shared_ptr<runtime::Module>> m = BuildJit({f}, Host());
  ASSERT_FALSE(m.ok());
  EXPECT_THAT(m.status().message(), ::testing::HasSubstr("sync_threads"));
}

}  // namespace
}  // namespace tunefarm::codegen
