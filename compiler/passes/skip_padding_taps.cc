#include "compiler/passes/skip_padding_taps.h"

#include <optional>
#include <utility>
#include <vector>

#include "compiler/ir/mutator.h"
#include "compiler/ir/op.h"
#include "compiler/ir/simplify/simplify.h"
#include "compiler/ir/structural_equal.h"
#include "compiler/ir/visitor.h"
#include "compiler/passes/buffer_access.h"

namespace tunefarm::passes {
namespace {

using ir::Expr;
using ir::Stmt;

bool IsZeroConstant(const Expr& e) {
  if (const auto* b = e.As<ir::BroadcastNode>()) return IsZeroConstant(b->value);
  if (const auto* f = e.As<ir::FloatImmNode>()) return f->value == 0.0;
  return ir::IsConstInt(e, 0);
}

void SplitConjuncts(const Expr& e, std::vector<Expr>& out) {
  if (const auto* a = e.As<ir::AndNode>()) {
    SplitConjuncts(a->a, out);
    SplitConjuncts(a->b, out);
    return;
  }
  out.push_back(e);
}

Expr JoinConjuncts(const std::vector<Expr>& terms) {
  Expr joined;
  for (const Expr& t : terms) joined = joined.defined() ? (joined && t) : t;
  return joined;
}

// Guards with calls (likely(), math) stay where they are, like those reading memory.
bool ReadsMemoryOrCalls(const Expr& e) {
  bool reads = false;
  ir::PostOrderVisit(e, [&](const Expr& x) {
    reads = reads || x.As<ir::LoadNode>() || x.As<ir::BufferLoadNode>() || x.As<ir::CallNode>();
  });
  return reads;
}

bool Contains(const std::vector<Expr>& set, const Expr& e) {
  for (const Expr& x : set) {
    if (ir::StructuralEqual(x, e)) return true;
  }
  return false;
}

// A Store `A[i] = A[i] + t*y`, taken apart so its padding guard can be rewritten.
struct Accumulation {
  const ir::StoreNode* store = nullptr;
  bool zero = false;            // t is a zero constant
  std::vector<Expr> conjuncts;  // of the guard c in t = if_then_else(c, x, 0)
  Expr data;                    // x
  Expr zero_value;              // the guard's else value (a zero of x's type)
  int lanes = 1;                // t broadcasts the guarded value to these lanes (1: scalar)
  bool load_first = true;       // A[i] + t*y rather than t*y + A[i]
  bool guarded_first = true;    // t*y rather than y*t
  Expr other;                   // y
  Expr load;                    // A[i]

  // The store with the guard reduced to `conjuncts` (none left: x itself).
  Stmt Rebuild(const std::vector<Expr>& remaining) const {
    // Raw nodes: the operators' constant folding would not wrap integers to their width.
    Expr t = remaining.empty() ? data
                               : ir::CallNode::Make(ir::Intrinsic::kIfThenElse,
                                                    {JoinConjuncts(remaining), data, zero_value});
    if (lanes > 1) t = ir::BroadcastNode::Make(t, lanes);
    Expr product = guarded_first ? ir::MulNode::Make(t, other) : ir::MulNode::Make(other, t);
    Expr sum = load_first ? ir::AddNode::Make(load, product) : ir::AddNode::Make(product, load);
    return ir::StoreNode::Make(store->buffer_var, sum, store->index);
  }
};

// Recognizes `t` as a zero or a guarded value, filling `acc`.
bool MatchPaddedTerm(const Expr& t, Accumulation& acc) {
  if (IsZeroConstant(t)) {
    acc.zero = true;
    return true;
  }
  Expr scalar = t;
  if (const auto* b = t.As<ir::BroadcastNode>()) {
    scalar = b->value;
    acc.lanes = b->lanes;
  }
  const auto* call = scalar.As<ir::CallNode>();
  if (!call || call->op != ir::Intrinsic::kIfThenElse || !IsZeroConstant(call->args[2]) ||
      call->args[0].dtype().lanes() != 1) {
    return false;
  }
  SplitConjuncts(call->args[0], acc.conjuncts);
  acc.data = call->args[1];
  acc.zero_value = call->args[2];
  return true;
}

std::optional<Accumulation> MatchAccumulation(const ir::StoreNode* store) {
  if (!store) return std::nullopt;
  const auto* add = store->value.As<ir::AddNode>();
  if (!add) return std::nullopt;
  for (bool load_first : {true, false}) {
    const Expr& load = load_first ? add->a : add->b;
    const auto* l = load.As<ir::LoadNode>();
    const auto* mul = (load_first ? add->b : add->a).As<ir::MulNode>();
    if (!l || !mul || l->buffer_var.get() != store->buffer_var.get() ||
        !ir::StructuralEqual(l->index, store->index)) {
      continue;
    }
    for (bool guarded_first : {true, false}) {
      Accumulation acc;
      acc.store = store;
      acc.load_first = load_first;
      acc.guarded_first = guarded_first;
      acc.load = load;
      acc.other = guarded_first ? mul->b : mul->a;
      if (MatchPaddedTerm(guarded_first ? mul->a : mul->b, acc)) return acc;
    }
  }
  return std::nullopt;
}

std::vector<Stmt> Statements(const Stmt& s) {
  if (const auto* seq = s.As<ir::SeqStmtNode>()) return seq->seq;
  return {s};
}

// `loop` with another body (and, optionally, another range).
Stmt LoopAround(const ir::ForNode* loop, Stmt body, Expr min = Expr(), Expr extent = Expr()) {
  return ir::ForNode::Make(loop->loop_var, min.defined() ? min : loop->min,
                           extent.defined() ? extent : loop->extent, loop->for_kind,
                           std::move(body), loop->thread_tag);
}

// A branch with no else: the hoisting and merging below move only these.
const ir::IfThenElseNode* PlainBranch(const Stmt& s) {
  const auto* branch = s.As<ir::IfThenElseNode>();
  return branch && !branch->else_case.defined() ? branch : nullptr;
}

// The guard conjuncts of the accumulations in a statement whose one variable is `v_`: the
// checks of a border that a loop over register tiles crosses.
class BorderGuardCollector : public ir::Visitor {
 public:
  explicit BorderGuardCollector(const ir::VarNode* v) : v_(v) {}
  std::vector<Expr> guards;
  int64_t stores = 0;
  // False for a body with a thread launch or a shared allocation: copies of those would launch
  // more kernels or add up in a block's shared memory.
  bool peelable = true;

 protected:
  void VisitStmt_(const ir::AttrStmtNode* op) override {
    peelable =
        peelable && op->key != ir::attr::kThreadExtent && op->key != ir::attr::kVirtualThread;
    ir::Visitor::VisitStmt_(op);
  }
  void VisitStmt_(const ir::AllocateNode* op) override {
    peelable = peelable && op->scope != "shared";
    ir::Visitor::VisitStmt_(op);
  }
  void VisitStmt_(const ir::StoreNode* op) override {
    ++stores;
    ir::Visitor::VisitStmt_(op);
    std::optional<Accumulation> acc = MatchAccumulation(op);
    if (!acc) return;
    for (const Expr& c : acc->conjuncts) {
      bool only_v = true;
      ir::PostOrderVisit(c, [&](const Expr& x) {
        if (const auto* var = x.As<ir::VarNode>()) only_v = only_v && var == v_;
      });
      if (only_v && UsesAnyVar(c, {v_}) && !ReadsMemoryOrCalls(c) && !Contains(guards, c)) {
        guards.push_back(c);
      }
    }
  }

 private:
  const ir::VarNode* v_;
};

// Peels the first and last iterations of a serial loop over register tiles where its padding
// guards change (at most kMaxPeeled), so the loop in between runs without them and the peeled
// tiles know which of their products are padding.
class BorderPeeler : public ir::Mutator {
 protected:
  Stmt VisitStmt_(const ir::ForNode* op) override {
    Stmt s = Mutator::VisitStmt_(op);
    const auto* loop = s.As<ir::ForNode>();
    std::optional<int64_t> min = ir::AsConstInt(loop->min), extent = ir::AsConstInt(loop->extent);
    if (loop->for_kind != ir::ForKind::kSerial || !min || !extent || *extent < 2 ||
        *extent > kMaxScanned) {
      return s;
    }
    BorderGuardCollector collector(loop->loop_var.get());
    collector.VisitStmt(loop->body);
    if (collector.guards.empty() || !collector.peelable) return s;
    auto at = [&](int64_t i) {
      return ir::VarMap{{loop->loop_var.get(), ir::IntImm(loop->loop_var.dtype(), i)}};
    };
    // Iterations where every guard holds: they must be one run, [first, last].
    std::optional<int64_t> first, last;
    for (int64_t i = *min; i < *min + *extent; ++i) {
      bool clean = true;
      for (const Expr& g : collector.guards) {
        clean = clean && ir::IsConstInt(arith::Simplify(ir::Substitute(g, at(i))), 1);
      }
      if (!clean) continue;
      if (last && *last != i - 1) return s;
      if (!first) first = i;
      last = i;
    }
    if (!first) return s;
    const int64_t peeled = (*first - *min) + (*min + *extent - 1 - *last);
    if (peeled == 0 || peeled > kMaxPeeled || (peeled + 1) * collector.stores > kMaxStores) {
      return s;
    }
    auto tile = [&](int64_t i) { return arith::SimplifyStmt(ir::Substitute(loop->body, at(i))); };
    std::vector<Stmt> parts;
    for (int64_t i = *min; i < *first; ++i) parts.push_back(tile(i));
    parts.push_back(
        arith::SimplifyStmt(LoopAround(loop, loop->body, ir::IntImm(loop->min.dtype(), *first),
                                       ir::IntImm(loop->extent.dtype(), *last - *first + 1))));
    for (int64_t i = *last + 1; i < *min + *extent; ++i) parts.push_back(tile(i));
    return ir::SeqStmtNode::Make(std::move(parts));
  }

 private:
  static constexpr int64_t kMaxScanned = 256;  // tile loops are short; this bounds the scan
  static constexpr int64_t kMaxPeeled = 2;     // each peeled tile is a copy of the loop's body
  // Stores after peeling, which bounds the code growth of nested peeled loops (a 28-column
  // tile of two vectors, unrolled over a 3-wide kernel, has about 200).
  static constexpr int64_t kMaxStores = 1024;
};

class PaddingTapSkipper : public ir::Mutator {
 protected:
  Stmt VisitStmt_(const ir::StoreNode* op) override {
    std::optional<Accumulation> acc = MatchAccumulation(op);
    return acc && acc->zero ? ir::MakeNop() : Self(op);
  }

  Stmt VisitStmt_(const ir::SeqStmtNode* op) override {
    Stmt s = Mutator::VisitStmt_(op);
    const auto* seq = s.As<ir::SeqStmtNode>();
    if (!seq) return s;
    // Neighbouring branches on one condition become one branch (three kernel columns' loops
    // under one kernel row's check).
    std::vector<Stmt> merged;
    for (const Stmt& item : seq->seq) {
      if (ir::IsNop(item)) continue;
      const ir::IfThenElseNode* next = PlainBranch(item);
      const ir::IfThenElseNode* last = merged.empty() ? nullptr : PlainBranch(merged.back());
      // The first branch cannot change a condition that reads no memory.
      if (next && last && !ReadsMemoryOrCalls(next->condition) &&
          ir::StructuralEqual(next->condition, last->condition)) {
        merged.back() = ir::IfThenElseNode::Make(
            last->condition, ir::SeqStmtNode::Make({last->then_case, next->then_case}));
      } else {
        merged.push_back(item);
      }
    }
    if (merged.empty()) return ir::MakeNop();
    return merged.size() == seq->seq.size() ? s : ir::SeqStmtNode::Make(std::move(merged));
  }

  Stmt VisitStmt_(const ir::ForNode* op) override {
    Stmt s = Mutator::VisitStmt_(op);
    const auto* loop = s.As<ir::ForNode>();
    if (!loop || loop->for_kind == ir::ForKind::kThreadBinding) return s;
    if (std::optional<Stmt> guarded = GuardAccumulations(loop)) return *guarded;
    const ir::IfThenElseNode* branch = PlainBranch(loop->body);
    if (branch && IsHoistable(branch->condition, loop)) {
      return ir::IfThenElseNode::Make(branch->condition, LoopAround(loop, branch->then_case));
    }
    return s;
  }

 private:
  static bool IsHoistable(const Expr& condition, const ir::ForNode* loop) {
    return !UsesVar(condition, loop->loop_var) && !ReadsMemoryOrCalls(condition);
  }

  // `if (r) for (...) {...}` when every statement of the loop is a guarded accumulation and
  // their guards share conjuncts r that the loop does not change.
  static std::optional<Stmt> GuardAccumulations(const ir::ForNode* loop) {
    std::vector<Accumulation> accs;
    for (const Stmt& item : Statements(loop->body)) {
      std::optional<Accumulation> acc = MatchAccumulation(item.As<ir::StoreNode>());
      if (!acc || acc->zero) return std::nullopt;
      accs.push_back(std::move(*acc));
    }
    std::vector<Expr> shared;
    for (const Expr& c : accs.front().conjuncts) {
      bool everywhere = IsHoistable(c, loop) && !Contains(shared, c);
      for (size_t i = 1; everywhere && i < accs.size(); ++i) {
        everywhere = Contains(accs[i].conjuncts, c);
      }
      if (everywhere) shared.push_back(c);
    }
    if (shared.empty()) return std::nullopt;
    std::vector<Stmt> body;
    for (const Accumulation& acc : accs) {
      std::vector<Expr> rest;
      for (const Expr& c : acc.conjuncts) {
        if (!Contains(shared, c)) rest.push_back(c);
      }
      body.push_back(acc.Rebuild(rest));
    }
    return ir::IfThenElseNode::Make(JoinConjuncts(shared),
                                    LoopAround(loop, ir::SeqStmtNode::Make(std::move(body))));
  }
};

}  // namespace

absl::StatusOr<ir::PrimFunc> SkipPaddingTaps(ir::PrimFunc f) {
  f.body = PaddingTapSkipper().VisitStmt(BorderPeeler().VisitStmt(f.body));
  return f;
}

}  // namespace tunefarm::passes
