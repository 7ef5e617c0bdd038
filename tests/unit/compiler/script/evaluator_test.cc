#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "tests/unit/compiler/script/script_test_support.h"

namespace tunefarm::script {
namespace {

TEST(EvaluatorTest, PlainArithmeticFollowsPython) {
  auto ev = RunOk(
      "a = 7 // 2\nb = -7 // 2\nc = -7 % 3\nd = 7 / 2\ne = 2 * 3 + 1\nf = 1.5 * 2\n"
      "g = 3 < 4\nh = 'ab' + 'c'\ni = not 0\nj = 0 or 5\nk = 2 and 3\n");
  EXPECT_EQ(Global(*ev, "a").as<int64_t>(), 3);
  EXPECT_EQ(Global(*ev, "b").as<int64_t>(), -4);
  EXPECT_EQ(Global(*ev, "c").as<int64_t>(), 2);
  EXPECT_DOUBLE_EQ(Global(*ev, "d").as<double>(), 3.5);
  EXPECT_EQ(Global(*ev, "e").as<int64_t>(), 7);
  EXPECT_DOUBLE_EQ(Global(*ev, "f").as<double>(), 3.0);
  EXPECT_TRUE(Global(*ev, "g").as<bool>());
  EXPECT_EQ(Global(*ev, "h").as<std::string>(), "abc");
  EXPECT_TRUE(Global(*ev, "i").as<bool>());
  EXPECT_EQ(Global(*ev, "j").as<int64_t>(), 5);
  EXPECT_EQ(Global(*ev, "k").as<int64_t>(), 3);
}

TEST(EvaluatorTest, ExpressionOperatorsBuildIr) {
  auto ev = RunOk(
      "n = var('n')\nm = var('m')\n"
      "a = n + 1\nb = n / 4\nc = n // 4\nd = n % 4\ne = -n\nf = n * 2.5\n"
      "g = n < m and m <= 8\nh = not (n == m)\ni = n / 2.0\nj = n // 2 * 2 + 1\nk = 2 + 3 * n\n");
  EXPECT_EQ(ExprText(*ev, "a"), "n + 1");
  EXPECT_EQ(ExprText(*ev, "b"), "floordiv(n, 4)");  // `/` on integers is floor division
  EXPECT_EQ(ExprText(*ev, "c"), "floordiv(n, 4)");
  EXPECT_EQ(ExprText(*ev, "d"), "floormod(n, 4)");
  EXPECT_EQ(Global(*ev, "f").as<ir::Expr>().dtype(), ir::DataType::Float(32));
  EXPECT_EQ(Global(*ev, "g").as<ir::Expr>().dtype(), ir::DataType::Bool());
  EXPECT_EQ(Global(*ev, "h").as<ir::Expr>().dtype(), ir::DataType::Bool());
  EXPECT_EQ(Global(*ev, "i").as<ir::Expr>().kind(), ir::ExprKind::kDiv);
  EXPECT_EQ(ExprText(*ev, "k"), "2 + 3*n");
}

TEST(EvaluatorTest, LiteralsBecomeInt32AndFloat32Constants) {
  auto ev = RunOk("n = var('n')\na = n + 1\nb = n * 1.5\nc = const(0, 'int8')\nd = const(2.0)\n");
  const auto& a = Global(*ev, "a").as<ir::Expr>();
  EXPECT_EQ(a.dtype(), ir::DataType::Int(32));
  EXPECT_EQ(Global(*ev, "c").as<ir::Expr>().dtype(), ir::DataType::Int(8));
  EXPECT_EQ(Global(*ev, "d").as<ir::Expr>().dtype(), ir::DataType::Float(32));
}

TEST(EvaluatorTest, ListsTuplesAndIndexing) {
  auto ev = RunOk("x = [1, 2, 3]\na = x[0]\nb = x[-1]\nt = (4, 5)\nc, d = t\ne, = [6]\n");
  EXPECT_EQ(Global(*ev, "a").as<int64_t>(), 1);
  EXPECT_EQ(Global(*ev, "b").as<int64_t>(), 3);
  EXPECT_EQ(Global(*ev, "c").as<int64_t>(), 4);
  EXPECT_EQ(Global(*ev, "d").as<int64_t>(), 5);
  EXPECT_EQ(Global(*ev, "e").as<int64_t>(), 6);
  EXPECT_TRUE(Global(*ev, "t").is_tuple());
}

TEST(EvaluatorTest, LambdasCloseOverTheirScope) {
  auto ev = RunOk(
      "k = 10\nf = lambda x, y: x * k + y\na = f(2, 3)\ng = lambda: f(1, 1)\n"
      "b = g()\n");
  EXPECT_EQ(Global(*ev, "a").as<int64_t>(), 23);
  EXPECT_EQ(Global(*ev, "b").as<int64_t>(), 11);
}

TEST(EvaluatorTest, PlaceholderAndTensorAttributes) {
  auto ev = RunOk(
      "n = var('n')\nA = placeholder((n, 16), dtype='int8', name='A')\nB = placeholder(n)\n"
      "d0 = A.shape[0]\nd1 = A.shape[1]\ndt = A.dtype\nnm = A.name\nnd = A.ndim\nop = A.op\n"
      "bn = B.name\nbdt = B.dtype\n");
  EXPECT_EQ(ExprText(*ev, "d0"), "n");
  EXPECT_EQ(ExprText(*ev, "d1"), "16");
  EXPECT_EQ(Global(*ev, "dt").as<std::string>(), "int8");
  EXPECT_EQ(Global(*ev, "nm").as<std::string>(), "A");
  EXPECT_EQ(Global(*ev, "nd").as<int64_t>(), 2);
  EXPECT_TRUE(Global(*ev, "op").is(Value::Kind::kOperation));
  EXPECT_EQ(Global(*ev, "bn").as<std::string>(), "placeholder");
  EXPECT_EQ(Global(*ev, "bdt").as<std::string>(), "float32");
  ASSERT_EQ(ev->symbolic_vars().size(), 1u);
  EXPECT_EQ(ev->symbolic_vars()[0].name(), "n");
}

TEST(EvaluatorTest, ComputeNamesAxesAfterTheLambdaParameters) {
  auto ev = RunOk(
      "n = var('n')\nA = placeholder((n, n), name='A')\n"
      "C = compute((n, n), lambda y, x: A[x, y] + 1.0, name='C')\n"
      "ax = C.op.axis\nay = C.axis[0]\nbody = C[0, 1]\n");
  const auto& c = Global(*ev, "C").as<te::Tensor>();
  ASSERT_EQ(c.op()->axis.size(), 2u);
  EXPECT_EQ(c.op()->axis[0]->var.name(), "y");
  EXPECT_EQ(c.op()->axis[1]->var.name(), "x");
  EXPECT_EQ(ir::ToString(c.op()->body), "A[x, y] + 1.0f");
  EXPECT_EQ(Global(*ev, "ax").items().size(), 2u);
  EXPECT_TRUE(Global(*ev, "ay").as<ir::IterVar>().same_as(c.op()->axis[0]));
  EXPECT_EQ(ExprText(*ev, "body"), "C[0, 1]");
}

TEST(EvaluatorTest, ReductionsWithAxesAndWhere) {
  auto ev = RunOk(
      "n = var('n')\nA = placeholder((n, n), name='A')\nk = reduce_axis((0, n), name='k')\n"
      "r = reduce_axis((1, 5), name='r')\n"
      "S = compute((n,), lambda i: sum(A[i, k], axis=k, where=k > 2), name='S')\n"
      "M = compute((n,), lambda i: max(A[i, k] + A[i, r], axis=[k, r]), name='M')\n"
      "L = compute((n,), lambda i: min(A[i, k], k), name='L')\n"
      "E = compute((n,), lambda i: max(A[i, 0], 0.0), name='E')\n"
      "rk = S.op.reduce_axis[0]\nrr = M.reduce_axis[1]\n");
  const auto& s = Global(*ev, "S").as<te::Tensor>();
  const auto* reduce = s.op()->body.As<ir::ReduceNode>();
  ASSERT_NE(reduce, nullptr);
  EXPECT_EQ(reduce->combiner->name, "sum");
  EXPECT_EQ(ir::ToString(reduce->condition), "k > 2");
  const auto& m = Global(*ev, "M").as<te::Tensor>();
  EXPECT_EQ(m.op()->reduce_axis.size(), 2u);
  const ir::IterVar& r = Global(*ev, "rr").as<ir::IterVar>();
  EXPECT_EQ(ir::ToString(r->dom.min), "1");
  EXPECT_EQ(ir::ToString(r->dom.extent), "4");  // Range min=lo, extent=hi-lo
  EXPECT_EQ(Global(*ev, "L").as<te::Tensor>().op()->body.As<ir::ReduceNode>()->combiner->name,
            "min");
  EXPECT_EQ(Global(*ev, "E").as<te::Tensor>().op()->body.kind(), ir::ExprKind::kMax);
}

TEST(EvaluatorTest, ConditionsIntrinsicsAndConstants) {
  auto ev = RunOk(
      "n = var('n')\nA = placeholder((n,), name='A')\n"
      "a = if_then_else(all(n > 1, n < 9, n != 4), A[0], const(0.0, 'float32'))\n"
      "b = any(n < 1, n > 9)\ne = exp(A[0])\nl = log(A[0])\nq = sqrt(A[0])\nt = tanh(A[0])\n"
      "g = sigmoid(A[0])\nf = fabs(A[0])\np = pow(A[0], 2.0)\nfl = floor(A[0])\nc = ceil(A[0])\n"
      "ei = exp(n)\n");
  EXPECT_EQ(ExprText(*ev, "a"), "if_then_else(n > 1 && n < 9 && n != 4, A[0], 0.0f)");
  EXPECT_EQ(ExprText(*ev, "b"), "n < 1 || n > 9");
  for (const char* name : {"e", "l", "q", "t", "g", "f", "p", "fl", "c"}) {
    EXPECT_EQ(Global(*ev, name).as<ir::Expr>().kind(), ir::ExprKind::kCall) << name;
  }
  EXPECT_EQ(ExprText(*ev, "p"), "pow(A[0], 2.0f)");
  EXPECT_EQ(Global(*ev, "ei").as<ir::Expr>().dtype(), ir::DataType::Float(32));
}

TEST(EvaluatorTest, ThreadAxisForms) {
  auto ev = RunOk(
      "bx = thread_axis('blockIdx.x')\ntx = thread_axis((0, 8), 'threadIdx.x')\n"
      "vx = thread_axis((0, 2), 'vthread', name='vx')\n");
  const auto& bx = Global(*ev, "bx").as<ir::IterVar>();
  EXPECT_EQ(bx->thread_tag, "blockIdx.x");
  EXPECT_FALSE(bx->dom.extent.defined());
  const auto& tx = Global(*ev, "tx").as<ir::IterVar>();
  EXPECT_EQ(tx->thread_tag, "threadIdx.x");
  EXPECT_EQ(ir::ToString(tx->dom.extent), "8");
  const auto& vx = Global(*ev, "vx").as<ir::IterVar>();
  EXPECT_EQ(vx->thread_tag, "vthread");
  EXPECT_EQ(vx->var.name(), "vx");
  EXPECT_EQ(vx->iter_type, ir::IterVarType::kThreadIndex);
}

TEST(EvaluatorTest, ModulePrefixesReachTheBuiltins) {
  auto ev = RunOk(
      "import tvm\nfrom tvm import te\nn = te.var('n')\nm = tvm.te.var('m')\n"
      "A = tvm.placeholder((n,), name='A')\nc = tvm.tir.const(1.0, 'float32')\n"
      "e = tvm.tir.exp(c)\n");
  EXPECT_EQ(ev->symbolic_vars().size(), 2u);
  EXPECT_TRUE(Global(*ev, "A").is(Value::Kind::kTensor));
  EXPECT_TRUE(Global(*ev, "e").is(Value::Kind::kExpr));
}

TEST(EvaluatorTest, IterVarsWorkInsideExpressions) {
  auto ev = RunOk(
      "n = var('n')\nA = placeholder((n,), name='A')\nk = reduce_axis((0, n), name='k')\n"
      "e = A[k * 2 + 1]\nv = k.var\n");
  EXPECT_EQ(ExprText(*ev, "e"), "A[k*2 + 1]");
  EXPECT_EQ(ExprText(*ev, "v"), "k");
}

TEST(EvaluatorTest, LongExpressionsEvaluate) {
  std::string source = "x = 0";
  for (int i = 0; i < 900; ++i) source += " + 1";
  auto ev = RunOk(source + "\n");
  EXPECT_EQ(Global(*ev, "x").as<int64_t>(), 900);
}

}  // namespace
}  // namespace tunefarm::script
