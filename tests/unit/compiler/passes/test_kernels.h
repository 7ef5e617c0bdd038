// Hand-built pre-flattening kernels (the IR ScheduleOps emits) shared by the pass tests, with
// plain C++ references to check them against.
#pragma once

#include <string>
#include <vector>

#include "compiler/ir/function.h"
#include "compiler/ir/mutator.h"
#include "compiler/ir/op.h"
#include "compiler/ir/visitor.h"

namespace tunefarm::passes::testing {

inline ir::Stmt Launch(const ir::Var& v, const std::string& tag, int extent, ir::Stmt body) {
  ir::IterVar iv(ir::Range{0, extent}, v, ir::IterVarType::kThreadIndex, tag);
  bool virtual_thread = tag == "vthread" || tag == "cthread";
  return ir::AttrStmtNode::Make(iv,
                                virtual_thread ? ir::attr::kVirtualThread : ir::attr::kThreadExtent,
                                extent, std::move(body));
}

inline ir::Stmt Loop(const ir::Var& v, int extent, ir::Stmt body,
                     ir::ForKind kind = ir::ForKind::kSerial) {
  return ir::ForNode::Make(v, 0, extent, kind, std::move(body));
}

inline ir::Stmt Produce(const ir::Buffer& b, ir::Stmt body) {
  return ir::AttrStmtNode::Make(b, ir::attr::kProduce, ir::Expr(), std::move(body));
}

inline ir::Stmt Realize(const ir::Buffer& b, std::vector<ir::Range> bounds, ir::Stmt body) {
  return ir::BufferRealizeNode::Make(b, std::move(bounds), std::move(body));
}

inline ir::Expr Load(const ir::Buffer& b, std::vector<ir::Expr> indices) {
  return ir::BufferLoadNode::Make(b, std::move(indices));
}

inline ir::Stmt Store(const ir::Buffer& b, ir::Expr value, std::vector<ir::Expr> indices) {
  return ir::BufferStoreNode::Make(b, std::move(value), std::move(indices));
}

// Flat accesses (after storage_flatten) of a parameter's data.
inline ir::Expr FlatLoad(const ir::Buffer& b, ir::Expr index) {
  ir::DataType type = b->dtype.with_lanes(index.dtype().lanes());
  return ir::LoadNode::Make(type, b->data, std::move(index));
}

inline ir::Stmt FlatStore(const ir::Buffer& b, ir::Expr value, ir::Expr index) {
  return ir::StoreNode::Make(b->data, std::move(value), std::move(index));
}

inline ir::Stmt Seq(std::vector<ir::Stmt> seq) { return ir::SeqStmtNode::Make(std::move(seq)); }

// How many sync_threads() barriers a statement holds.
inline int CountBarriers(const ir::Stmt& s) {
  int count = 0;
  ir::PostOrderVisit(s, [&](const ir::Expr& e) {
    const auto* call = e.As<ir::CallNode>();
    count += call && call->op == ir::Intrinsic::kSyncThreads;
  });
  return count;
}

inline ir::Stmt Barrier() {
  return ir::EvaluateNode::Make(ir::Call(ir::Intrinsic::kSyncThreads, {}));
}

// The shape of the shared-tile matrix products: C[m, n] = Σ_k A[m, k]·B[k, n] with
// m = blocks·tile, n = vthreads·tile, k = k_tiles·tile.
struct TileShape {
  int tile = 4;
  int blocks = 2;
  int k_tiles = 3;
  int vthreads = 1;
  int m() const { return blocks * tile; }
  int n() const { return vthreads * tile; }
  int k() const { return k_tiles * tile; }
};

// One block per `tile` rows of C, `tile` threads per block, `vthreads` virtual threads. For each
// tile of k, thread tx loads column tx of the A tile into shared AS (not using the virtual
// thread), then virtual thread vx of thread tx accumulates column vx·tile + tx of C's row tile
// in a local CL[tile], reading every column of AS: a cooperative load that needs barriers
// (before the reads, and before the next tile's load overwrites AS).
inline ir::PrimFunc SharedTileMatmul(const TileShape& s) {
  using ir::Expr;
  const ir::DataType f32 = ir::DataType::Float(32);
  ir::Buffer a("A", f32, {s.m(), s.k()}), b("B", f32, {s.k(), s.n()}), c("C", f32, {s.m(), s.n()});
  ir::Buffer as("AS", f32, {s.tile, s.tile}, "shared"), cl("CL", f32, {s.tile}, "local");
  ir::Var bx("bx"), vx("vx"), tx("tx"), i("i"), ko("ko"), kk("kk");
  Expr row = bx * s.tile + i, col = vx * s.tile + tx;
  ir::Stmt fill =
      Produce(as, Loop(i, s.tile, Store(as, Load(a, {row, ko * s.tile + tx}), {i, tx})));
  ir::Stmt update = Loop(
      kk, s.tile,
      Loop(i, s.tile,
           Store(cl, Load(cl, {i}) + Load(as, {i, kk}) * Load(b, {ko * s.tile + kk, col}), {i})));
  ir::Stmt compute =
      Seq({Loop(i, s.tile, Store(cl, ir::FloatImm(f32, 0), {i})),
           Loop(ko, s.k_tiles, Realize(as, {{0, s.tile}, {0, s.tile}}, Seq({fill, update}))),
           Loop(i, s.tile, Store(c, Load(cl, {i}), {row, col}))});
  ir::Stmt thread =
      Launch(tx, "threadIdx.x", s.tile, Realize(cl, {{0, s.tile}}, Produce(cl, compute)));
  ir::Stmt body = s.vthreads > 1 ? Launch(vx, "vthread", s.vthreads, thread)
                                 : ir::Substitute(thread, {{vx.get(), Expr(0)}});
  return ir::PrimFunc{"shared_tile_matmul", {a, b, c}, Launch(bx, "blockIdx.x", s.blocks, body)};
}

// C = A·B for row-major A[m, k] and B[k, n], in plain C++.
inline std::vector<float> MatmulReference(int m, int n, int k, const std::vector<float>& a,
                                          const std::vector<float>& b) {
  std::vector<float> c(static_cast<size_t>(m * n), 0.0f);
  for (int i = 0; i < m; ++i) {
    for (int j = 0; j < n; ++j) {
      float sum = 0;
      for (int r = 0; r < k; ++r) sum += a[i * k + r] * b[r * n + j];
      c[i * n + j] = sum;
    }
  }
  return c;
}

}  // namespace tunefarm::passes::testing
