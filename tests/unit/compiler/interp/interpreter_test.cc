// The public entry points: argument checking, symbolic shape binding, compiling once and running
// many times, and whole kernels (flat and pre-flattening matmul) against a C++ reference.
#include "compiler/interp/interpreter.h"

#include <cstdint>
#include <gtest/gtest.h>
#include <vector>

#include "compiler/ir/op.h"
#include "tests/unit/compiler/interp/interp_fixtures.h"

namespace tunefarm::interp {
namespace {

using ir::DataType;
using ir::Expr;
using ir::Stmt;
using testing::Contents;
using testing::MakeArray;

using testing::kF32;

Stmt Loop(const ir::Var& v, Expr extent, Stmt body) {
  return ir::ForNode::Make(v, 0, std::move(extent), ir::ForKind::kSerial, std::move(body));
}

// C[i] = A[i] + B[i] over a symbolic n, with C's shape written as a constant or expression.
ir::PrimFunc VectorAdd(ir::Var n, Expr c_dim) {
  ir::Buffer a("A", kF32, {n}), b("B", kF32, {n}), c("C", kF32, {std::move(c_dim)});
  ir::Var i("i");
  Stmt body =
      Loop(i, n,
           ir::BufferStoreNode::Make(
               c, ir::BufferLoadNode::Make(a, {i}) + ir::BufferLoadNode::Make(b, {i}), {i}));
  return ir::PrimFunc{"vadd", {a, b, c}, body};
}

TEST(InterpreterTest, BindsShapeVariablesFromTheArguments) {
  ir::Var n("n");
  ir::PrimFunc f = VectorAdd(n, n);
  for (int len : {1, 5, 17}) {
    std::vector<float> x(len), y(len), want(len);
    for (int i = 0; i < len; ++i) {
      x[i] = static_cast<float>(i);
      y[i] = static_cast<float>(10 * i);
      want[i] = static_cast<float>(11 * i);
    }
    runtime::NDArray a = MakeArray<float>(kF32, {len}, x), b = MakeArray<float>(kF32, {len}, y);
    runtime::NDArray c = MakeArray<float>(kF32, {len});
    ASSERT_TRUE(interp::Run(f, {&a, &b, &c}).ok());
    EXPECT_EQ(Contents<float>(c), want);
  }
}

TEST(InterpreterTest, ChecksShapesAgainstTheBoundVariables) {
  ir::Var n("n");
  runtime::NDArray a = MakeArray<float>(kF32, {4}), b = MakeArray<float>(kF32, {3});
  runtime::NDArray c = MakeArray<float>(kF32, {4}), c8 = MakeArray<float>(kF32, {8});
  absl::Status s = interp::Run(VectorAdd(n, n), {&a, &b, &c});
  EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_NE(s.message().find("dimension 0 of B is 3 but n = 4"), std::string::npos) << s;

  // A dimension that is an expression of shape variables is checked, not bound.
  EXPECT_TRUE(interp::Run(VectorAdd(n, n * 2), {&a, &a, &c8}).ok());
  s = interp::Run(VectorAdd(n, n * 2), {&a, &a, &c});
  EXPECT_NE(s.message().find("dimension 0 of C is 4, expected 8"), std::string::npos) << s;
  s = interp::Run(VectorAdd(n, 5), {&a, &a, &c});
  EXPECT_NE(s.message().find("expected 5"), std::string::npos) << s;
}

TEST(InterpreterTest, RejectsMismatchedArguments) {
  ir::Var n("n");
  ir::PrimFunc f = VectorAdd(n, n);
  runtime::NDArray a = MakeArray<float>(kF32, {4});
  runtime::NDArray ints = MakeArray<int32_t>(DataType::Int(32), {4});
  runtime::NDArray matrix = MakeArray<float>(kF32, {2, 2});
  runtime::NDArray undefined;
  struct Case {
    std::vector<runtime::NDArray*> args;
    const char* message;
  };
  for (const Case& c : {Case{{&a, &a}, "expected 3 arguments, got 2"},
                        Case{{&a, &ints, &a}, "argument for B has dtype int32, expected float32"},
                        Case{{&a, &a, &matrix}, "argument for C has rank 2, expected 1"},
                        Case{{&a, nullptr, &a}, "argument for B is undefined"},
                        Case{{&a, &a, &undefined}, "argument for C is undefined"}}) {
    absl::Status s = interp::Run(f, c.args);
    EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument);
    EXPECT_NE(s.message().find(c.message), std::string::npos) << s;
  }
  // The same array may be passed twice, for in-place kernels.
  EXPECT_TRUE(interp::Run(f, {&a, &a, &a}).ok());
}

// The flat, lowered form: C[i*n + j] += A[i*n + k] * B[k*n + j] after a zero init.
ir::PrimFunc FlatMatmul(int n) {
  ir::Buffer a("A", kF32, {n, n}), b("B", kF32, {n, n}), c("C", kF32, {n, n});
  ir::Var i("i"), j("j"), k("k");
  auto load = [&](const ir::Buffer& buf, Expr idx) {
    return ir::LoadNode::Make(kF32, buf->data, std::move(idx));
  };
  Stmt init = ir::StoreNode::Make(c->data, ir::FloatImm(kF32, 0), i * n + j);
  Stmt update = ir::StoreNode::Make(
      c->data, load(c, i * n + j) + load(a, i * n + k) * load(b, k * n + j), i * n + j);
  Stmt body = Loop(i, n, Loop(j, n, ir::SeqStmtNode::Make({init, Loop(k, n, update)})));
  return ir::PrimFunc{"matmul", {a, b, c}, body};
}

std::vector<float> Reference(const std::vector<float>& a, const std::vector<float>& b, int n) {
  std::vector<float> c(n * n, 0.0f);
  for (int i = 0; i < n; ++i) {
    for (int j = 0; j < n; ++j) {
      for (int k = 0; k < n; ++k) c[i * n + j] += a[i * n + k] * b[k * n + j];
    }
  }
  return c;
}

TEST(InterpreterTest, CompiledMatmulRunsManyTimesAndMatchesTheReference) {
  constexpr int n = 16;
  auto compiled = CompiledFunc::Compile(FlatMatmul(n));
  ASSERT_TRUE(compiled.ok()) << compiled.status();
  for (int trial = 0; trial < 3; ++trial) {
    std::vector<float> x(n * n), y(n * n);
    for (int i = 0; i < n * n; ++i) {
      x[i] = static_cast<float>((i * 7 + trial) % 13) - 6;
      y[i] = static_cast<float>((i * 5 + 2 * trial) % 11) * 0.5f;
    }
    runtime::NDArray a = MakeArray<float>(kF32, {n, n}, x), b = MakeArray<float>(kF32, {n, n}, y);
    runtime::NDArray c = MakeArray<float>(kF32, {n, n});
    ASSERT_TRUE(compiled->Run({&a, &b, &c}).ok());
    EXPECT_EQ(Contents<float>(c), Reference(x, y, n));
  }
}

// The pre-flattening form a schedule produces: a realized local accumulator with BufferStore.
TEST(InterpreterTest, RunsPreFlatteningIrWithRealizeAndBufferAccesses) {
  constexpr int n = 4;
  ir::Buffer a("A", kF32, {n, n}), b("B", kF32, {n, n}), c("C", kF32, {n, n});
  ir::Buffer acc("acc", kF32, {n, n}, "local");
  ir::Var i("i"), j("j"), k("k");
  Stmt init = ir::BufferStoreNode::Make(acc, ir::FloatImm(kF32, 0), {i, j});
  Stmt update = ir::BufferStoreNode::Make(
      acc,
      ir::BufferLoadNode::Make(acc, {i, j}) +
          ir::BufferLoadNode::Make(a, {i, k}) * ir::BufferLoadNode::Make(b, {k, j}),
      {i, j});
  Stmt write = ir::BufferStoreNode::Make(c, ir::BufferLoadNode::Make(acc, {i, j}), {i, j});
  // acc is realized for one row at a time: [i, i + 1) x [0, n).
  Stmt row = ir::BufferRealizeNode::Make(
      acc, {ir::Range::FromMinExtent(i, 1), ir::Range::FromMinExtent(0, n)},
      Loop(j, n, ir::SeqStmtNode::Make({init, Loop(k, n, update), write})));
  ir::PrimFunc f{"matmul_realize", {a, b, c}, Loop(i, n, row)};
  std::vector<float> x(n * n), y(n * n);
  for (int t = 0; t < n * n; ++t) {
    x[t] = static_cast<float>(t % 5);
    y[t] = static_cast<float>(t % 3 - 1);
  }
  runtime::NDArray ra = MakeArray<float>(kF32, {n, n}, x), rb = MakeArray<float>(kF32, {n, n}, y);
  runtime::NDArray rc = MakeArray<float>(kF32, {n, n});
  absl::Status s = interp::Run(f, {&ra, &rb, &rc});
  ASSERT_TRUE(s.ok()) << s;
  EXPECT_EQ(Contents<float>(rc), Reference(x, y, n));
}

TEST(InterpreterTest, CompileErrorsNameTheFunction) {
  ir::Buffer a("A", kF32, {4});
  ir::Var free_var("m");
  Stmt body = ir::BufferStoreNode::Make(a, ir::FloatImm(kF32, 0), {free_var});
  auto compiled = CompiledFunc::Compile(ir::PrimFunc{"broken", {a}, body});
  ASSERT_FALSE(compiled.ok());
  EXPECT_NE(compiled.status().message().find("function broken: variable m"), std::string::npos)
      << compiled.status();
  EXPECT_FALSE(CompiledFunc::Compile(ir::PrimFunc{"dup", {a, a}, ir::MakeNop()}).ok());
}

}  // namespace
}  // namespace tunefarm::interp
