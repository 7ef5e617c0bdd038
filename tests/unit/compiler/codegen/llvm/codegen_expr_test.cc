// Expressions through the JIT against the interpreter: arithmetic of every integer and float type
// (wrapping, C and floor division with negative operands, INT_MIN / -1), min/max and comparisons
// with NaN, logic, select, ramps, broadcasts and lets, as scalar loops and as 8-lane vector code.
#include <functional>
#include <gtest/gtest.h>
#include <limits>

#include "tests/unit/compiler/codegen/llvm/codegen_test_util.h"

namespace tunefarm::codegen {
namespace {

using namespace testing;  // NOLINT
using ir::DataType;
using ir::Expr;

constexpr int64_t kExprLength = 64;
constexpr int kLanes = 8;

struct BinaryOp {
  const char* name;
  std::function<Expr(Expr, Expr)> make;
  bool divides;  // needs a nonzero divisor
};

const std::vector<BinaryOp>& ArithmeticOps() {
  static const std::vector<BinaryOp> ops = {
      {"add", [](Expr a, Expr b) { return a + b; }, false},
      {"sub", [](Expr a, Expr b) { return a - b; }, false},
      {"mul", [](Expr a, Expr b) { return a * b; }, false},
      {"div", [](Expr a, Expr b) { return ir::TruncDiv(a, b); }, true},
      {"mod", [](Expr a, Expr b) { return ir::TruncMod(a, b); }, true},
      {"floordiv", [](Expr a, Expr b) { return ir::FloorDiv(a, b); }, true},
      {"floormod", [](Expr a, Expr b) { return ir::FloorMod(a, b); }, true},
      {"min", [](Expr a, Expr b) { return ir::Min(a, b); }, false},
      {"max", [](Expr a, Expr b) { return ir::Max(a, b); }, false},
  };
  return ops;
}

const std::vector<BinaryOp>& CompareOps() {
  static const std::vector<BinaryOp> ops = {
      {"eq", [](Expr a, Expr b) { return a == b; }, false},
      {"ne", [](Expr a, Expr b) { return a != b; }, false},
      {"lt", [](Expr a, Expr b) { return a < b; }, false},
      {"le", [](Expr a, Expr b) { return a <= b; }, false},
      {"gt", [](Expr a, Expr b) { return a > b; }, false},
      {"ge", [](Expr a, Expr b) { return a >= b; }, false},
  };
  return ops;
}

// Operands that reach the interesting corners: large magnitudes (products wrap), negative values
// (division rounding), INT_MIN / -1, and for floats a NaN and a zero.
void FillOperands(runtime::NDArray& a, runtime::NDArray& b, DataType t, bool divides) {
  const double span = t.is_float() ? 50.0 : std::ldexp(1.0, std::min(t.bits() - 2, 40));
  const double lo = t.is_uint() ? 0 : -span;
  Fill(a, 1, lo, span);
  Fill(b, 2, t.is_uint() ? 1 : -9, 9);
  for (int64_t i = 0; i < kExprLength; ++i) {
    if (divides && ElementAt(b, i) == 0) SetElement(b, i, 3);
  }
  if (t.is_int()) {
    SetElement(a, 5, static_cast<double>(std::numeric_limits<int64_t>::min() >> (64 - t.bits())));
    SetElement(b, 5, -1);
    SetElement(a, 6, -7);
    SetElement(b, 6, 2);
  }
  if (t.is_float()) {
    SetElement(a, 7, std::nan(""));
    SetElement(b, 8, std::nan(""));
    SetElement(a, 9, 0.0);
    if (!divides) SetElement(b, 9, 0.0);
  }
}

// C[i] = op(A[i], B[i]), as a scalar loop or (lanes 8) over ramps.
ir::PrimFunc BinaryKernel(const BinaryOp& op, DataType t, DataType out_t, int lanes) {
  ir::Buffer a("A", t, {static_cast<int>(kExprLength)});
  ir::Buffer b("B", t, {static_cast<int>(kExprLength)});
  ir::Buffer c("C", out_t, {static_cast<int>(kExprLength)});
  ir::Var i("i", kI32);
  Expr index = lanes == 1 ? Expr(i) : ir::RampNode::Make(i * lanes, 1, lanes);
  ir::Stmt store = ir::StoreNode::Make(c->data, op.make(At(a, index), At(b, index)), index);
  ir::Stmt loop =
      ir::ForNode::Make(i, 0, static_cast<int>(kExprLength / lanes), ir::ForKind::kSerial, store);
  return ir::PrimFunc{absl::StrCat(op.name, "_", t.ToString(), "_x", lanes), {a, b, c}, loop};
}

void CheckBinary(const BinaryOp& op, DataType t, DataType out_t, int lanes) {
  SCOPED_TRACE(absl::StrCat(op.name, " on ", t.ToString(), " x", lanes));
  runtime::NDArray a = MakeArray(t, {kExprLength}), b = MakeArray(t, {kExprLength}),
                   c = MakeArray(out_t, {kExprLength});
  FillOperands(a, b, t, op.divides);
  ExpectMatchesInterpreter(BinaryKernel(op, t, out_t, lanes), {&a, &b, &c}, 1e-6, 1e-6);
}

class TypedExprTest : public ::testing::TestWithParam<DataType> {};

TEST_P(TypedExprTest, ArithmeticMatchesTheInterpreter) {
  for (const BinaryOp& op : ArithmeticOps()) {
    for (int lanes : {1, kLanes}) CheckBinary(op, GetParam(), GetParam(), lanes);
  }
}

TEST_P(TypedExprTest, ComparisonsMatchTheInterpreter) {
  for (const BinaryOp& op : CompareOps()) {
    for (int lanes : {1, kLanes}) CheckBinary(op, GetParam(), DataType::Bool(), lanes);
  }
}

INSTANTIATE_TEST_SUITE_P(AllTypes, TypedExprTest,
                         ::testing::Values(DataType::Int(8), DataType::Int(16), DataType::Int(32),
                                           DataType::Int(64), DataType::UInt(8), DataType::UInt(16),
                                           DataType::UInt(32), DataType::UInt(64), kF32, kF64),
                         [](const auto& info) { return info.param.ToString(); });

TEST(CodegenExprTest, FloorDivisionRoundsTowardNegativeInfinity) {
  ir::Buffer a("A", kI32, {8}), b("B", kI32, {8}), q("Q", kI32, {8}), r("R", kI32, {8});
  ir::Var i("i", kI32);
  ir::Stmt body = ir::SeqStmtNode::Make({
      ir::StoreNode::Make(q->data, ir::FloorDiv(At(a, i), At(b, i)), i),
      ir::StoreNode::Make(r->data, ir::FloorMod(At(a, i), At(b, i)), i),
  });
  ir::PrimFunc f{"floor_div", {a, b, q, r}, ir::ForNode::Make(i, 0, 8, ir::ForKind::kSerial, body)};
  runtime::NDArray av = MakeArray(kI32, {8}), bv = MakeArray(kI32, {8});
  runtime::NDArray qv = MakeArray(kI32, {8}), rv = MakeArray(kI32, {8});
  const int as[] = {-7, 7, -7, 7, -8, 0, -1, 5};
  const int bs[] = {2, -2, -2, 2, 4, 3, 8, 8};
  for (int k = 0; k < 8; ++k) {
    SetElement(av, k, as[k]);
    SetElement(bv, k, bs[k]);
  }
  ASSERT_TRUE(RunJit(f, {&av, &bv, &qv, &rv}).ok());
  const int want_q[] = {-4, -4, 3, 3, -2, 0, -1, 0};
  const int want_r[] = {1, -1, -1, 1, 0, 0, 7, 5};
  for (int k = 0; k < 8; ++k) {
    EXPECT_EQ(ElementAt(qv, k), want_q[k]) << as[k] << " // " << bs[k];
    EXPECT_EQ(ElementAt(rv, k), want_r[k]) << as[k] << " % " << bs[k];
  }
}

TEST(CodegenExprTest, FloorDivisionByConstantsMatchesTheInterpreter) {
  ir::Buffer a("A", kI32, {static_cast<int>(kExprLength)}),
      c("C", kI32, {static_cast<int>(kExprLength)});
  for (int divisor : {1, 2, 3, 8, -4, -3}) {
    SCOPED_TRACE(divisor);
    ir::PrimFunc f = OneLoop("floor_const", {a}, c, kExprLength, [&](ir::Var i) {
      return ir::FloorDiv(At(a, i), divisor) * 1000 + ir::FloorMod(At(a, i), divisor);
    });
    runtime::NDArray av = MakeArray(kI32, {kExprLength}), cv = MakeArray(kI32, {kExprLength});
    Fill(av, 3, -50, 50);
    ExpectMatchesInterpreter(f, {&av, &cv});
  }
}

TEST(CodegenExprTest, LogicSelectAndLetMatchTheInterpreter) {
  ir::Buffer a("A", kF32, {static_cast<int>(kExprLength)}),
      b("B", kF32, {static_cast<int>(kExprLength)});
  ir::Buffer c("C", kF32, {static_cast<int>(kExprLength)});
  ir::Var x("x", kF32);
  ir::PrimFunc f = OneLoop("logic", {a, b}, c, kExprLength, [&](ir::Var i) {
    Expr in_band = (At(a, i) > -1.0f && At(a, i) < 1.0f) || !(At(b, i) < 0.0f);
    Expr let = ir::LetNode::Make(x, At(a, i) * 2.0f, x + x * At(b, i));
    return ir::Select(in_band, let, At(b, i) - 1.0f);
  });
  runtime::NDArray av = MakeArray(kF32, {kExprLength}), bv = MakeArray(kF32, {kExprLength}),
                   cv = MakeArray(kF32, {kExprLength});
  Fill(av, 4);
  Fill(bv, 5);
  ExpectMatchesInterpreter(f, {&av, &bv, &cv});
}

TEST(CodegenExprTest, RampsAndBroadcastsBuildVectors) {
  ir::Buffer a("A", kF32, {8}), c("C", kF32, {64});
  ir::Var i("i", kI32);
  Expr lanes = ir::Cast(ir::DataType::Float(32, 8), ir::RampNode::Make(i, 3, 8));
  Expr value = lanes * ir::BroadcastNode::Make(At(a, i), 8) + ir::BroadcastNode::Make(0.5f, 8);
  ir::Stmt store = ir::StoreNode::Make(c->data, value, ir::RampNode::Make(i * 8, 1, 8));
  ir::PrimFunc f{"ramps", {a, c}, ir::ForNode::Make(i, 0, 8, ir::ForKind::kSerial, store)};
  runtime::NDArray av = MakeArray(kF32, {8}), cv = MakeArray(kF32, {64});
  Fill(av, 6);
  ExpectMatchesInterpreter(f, {&av, &cv});
}

TEST(CodegenExprTest, AnUndefinedVariableIsAnError) {
  ir::Buffer c("C", kI32, {4});
  ir::Var stray("stray", kI32);
  ir::Var i("i", kI32);
  // A Let binds `stray` in one place and the store uses it outside: a free variable that is not
  // a kernel argument because the let defines it.
  Expr bound = ir::LetNode::Make(stray, 1, stray + 1);
  ir::Stmt s = ir::SeqStmtNode::Make(
      {ir::StoreNode::Make(c->data, bound, 0), ir::StoreNode::Make(c->data, stray, 1)});
  ir::PrimFunc f{"stray", {c}, s};
  absl::StatusOr<std::shared_ptr<runtime::Module>> m = BuildJit({f}, Host());
  ASSERT_FALSE(m.ok());
  EXPECT_NE(m.status().message().find("stray"), std::string::npos) << m.status();
}

}  // namespace
}  // namespace tunefarm::codegen
