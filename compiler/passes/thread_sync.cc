#include "compiler/passes/thread_sync.h"

#include <optional>
#include <spdlog/spdlog.h>
#include <string>
#include <utility>
#include <vector>

#include "compiler/ir/op.h"
#include "compiler/ir/visitor.h"
#include "compiler/passes/buffer_access.h"
#include "compiler/passes/pass.h"

namespace tunefarm::passes {
namespace {

using ir::Stmt;

// Shared buffers touched by the threads since the last barrier.
struct SyncState {
  VarSet written;
  VarSet read;

  void Clear() {
    written.clear();
    read.clear();
  }
  void Add(const BufferAccess& access) {
    written.insert(access.writes.begin(), access.writes.end());
    read.insert(access.reads.begin(), access.reads.end());
  }
  void Merge(const SyncState& other) {
    written.insert(other.written.begin(), other.written.end());
    read.insert(other.read.begin(), other.read.end());
  }
  bool operator==(const SyncState& other) const {
    return written == other.written && read == other.read;
  }
};

bool Intersects(const VarSet& a, const VarSet& b) {
  for (const auto* v : a) {
    if (b.count(v)) return true;
  }
  return false;
}

bool IsThreadIdx(const std::string& tag) { return tag.rfind("threadIdx", 0) == 0; }

Stmt Barrier() { return ir::EvaluateNode::Make(ir::Call(ir::Intrinsic::kSyncThreads, {})); }

int CountBarriers(const Stmt& s) {
  int count = 0;
  ir::PostOrderVisit(s, [&](const ir::Expr& e) {
    const auto* call = e.As<ir::CallNode>();
    count += call != nullptr && call->op == ir::Intrinsic::kSyncThreads;
  });
  return count;
}

bool IsThreadIdxAttr(const ir::AttrStmtNode* op) {
  const auto* iv = std::get_if<ir::IterVar>(&op->node);
  return op->key == ir::attr::kThreadExtent && iv && IsThreadIdx((*iv)->thread_tag);
}

// Whether s launches threads (a threadIdx attribute or thread-bound loop) anywhere inside.
bool HasThreadRegion(const Stmt& s) {
  class Finder : public ir::Visitor {
   public:
    bool found = false;

   protected:
    void VisitStmt_(const ir::AttrStmtNode* op) override {
      found = found || IsThreadIdxAttr(op);
      if (!found) ir::Visitor::VisitStmt_(op);
    }
    void VisitStmt_(const ir::ForNode* op) override {
      found = found || (op->for_kind == ir::ForKind::kThreadBinding && IsThreadIdx(op->thread_tag));
      if (!found) ir::Visitor::VisitStmt_(op);
    }
  } finder;
  finder.VisitStmt(s);
  return finder.found;
}

bool HasLoad(const ir::Expr& e) {
  bool found = false;
  ir::PostOrderVisit(e,
                     [&](const ir::Expr& x) { found = found || x.As<ir::LoadNode>() != nullptr; });
  return found;
}

// Plans barriers over a statement tree in execution order (rules in the header).
class SyncPlanner {
 public:
  explicit SyncPlanner(VarSet shared) : shared_(std::move(shared)) {}

  // Whether some shared-memory hazard sits inside code that threads take differently, where no
  // barrier can go.
  bool divergent_hazard() const { return divergent_hazard_; }

  Stmt Plan(const Stmt& s, SyncState* state) {
    if (const auto* seq = s.As<ir::SeqStmtNode>()) {
      std::vector<Stmt> out;
      for (const auto& child : seq->seq) out.push_back(PlanItem(child, state));
      return ir::SeqStmtNode::Make(std::move(out));
    }
    return PlanItem(s, state);
  }

 private:
  // One statement of a sequence: a barrier before it if it needs one, then the statement,
  // descended into when barriers may go inside it.
  Stmt PlanItem(const Stmt& s, SyncState* state) {
    BufferAccess access = SharedAccess(s);
    if (access.reads.empty() && access.writes.empty()) return s;
    if (thread_depth_ == 0 && !HasThreadRegion(s)) {
      state->Add(access);  // no thread here: nothing to synchronize
      return s;
    }
    bool conflict =
        Intersects(access.reads, state->written) || Intersects(access.writes, state->read);
    Stmt barrier;
    if (conflict && thread_depth_ > 0) {
      barrier = Barrier();
      state->Clear();
    }
    Stmt planned = Descend(s, access, state);
    if (!barrier.defined() || OwnsLeadingBarrier(planned)) return planned;
    return ir::SeqStmtNode::Make({barrier, planned});
  }

  // A loop that runs at least once and starts its body with a barrier needs none before it.
  static bool OwnsLeadingBarrier(const Stmt& s) {
    const auto* loop = s.As<ir::ForNode>();
    if (!loop || loop->for_kind == ir::ForKind::kThreadBinding) return false;
    std::optional<int64_t> extent = ir::AsConstInt(loop->extent);
    return extent && *extent >= 1 && StartsWithBarrier(loop->body);
  }

  static bool StartsWithBarrier(Stmt s) {
    while (true) {
      if (const auto* seq = s.As<ir::SeqStmtNode>()) {
        s = seq->seq[0];
      } else if (const auto* alloc = s.As<ir::AllocateNode>()) {
        s = alloc->body;
      } else if (const auto* let = s.As<ir::LetStmtNode>()) {
        s = let->body;
      } else if (const auto* attr = s.As<ir::AttrStmtNode>()) {
        s = attr->body;
      } else {
        const auto* eval = s.As<ir::EvaluateNode>();
        const auto* call = eval ? eval->value.As<ir::CallNode>() : nullptr;
        return call && call->op == ir::Intrinsic::kSyncThreads;
      }
    }
  }

  Stmt Descend(const Stmt& s, const BufferAccess& access, SyncState* state) {
    switch (s.kind()) {
      case ir::StmtKind::kSeqStmt:
        return Plan(s, state);
      case ir::StmtKind::kFor:
        return PlanFor(s.As<ir::ForNode>(), s, access, state);
      case ir::StmtKind::kIfThenElse:
        return PlanIf(s.As<ir::IfThenElseNode>(), s, access, state);
      case ir::StmtKind::kAttrStmt:
        return PlanAttr(s.As<ir::AttrStmtNode>(), state);
      case ir::StmtKind::kLetStmt: {
        const auto* op = s.As<ir::LetStmtNode>();
        bool varies = !IsUniform(op->value);
        if (varies) thread_vars_.insert(op->var.get());
        Stmt body = Plan(op->body, state);
        if (varies) thread_vars_.erase(op->var.get());
        return ir::LetStmtNode::Make(op->var, op->value, body);
      }
      case ir::StmtKind::kAllocate: {
        const auto* op = s.As<ir::AllocateNode>();
        return ir::AllocateNode::Make(op->buffer_var, op->dtype, op->extents, op->scope,
                                      Plan(op->body, state));
      }
      case ir::StmtKind::kAssertStmt: {
        const auto* op = s.As<ir::AssertStmtNode>();
        return ir::AssertStmtNode::Make(op->condition, op->message, Plan(op->body, state));
      }
      default:
        state->Add(access);
        return s;
    }
  }

  Stmt PlanFor(const ir::ForNode* op, const Stmt& s, const BufferAccess& access, SyncState* state) {
    if (op->for_kind == ir::ForKind::kThreadBinding && IsThreadIdx(op->thread_tag)) {
      return ThreadRegion(op->loop_var, [&] {
        return ir::ForNode::Make(op->loop_var, op->min, op->extent, op->for_kind,
                                 Plan(op->body, state), op->thread_tag);
      });
    }
    if (!IsUniform(op->min) || !IsUniform(op->extent)) {
      return DivergentUnit(s, access, state);  // threads run different iteration counts
    }
    // Iteration k + 1 starts with what iteration k left pending, which is at most what came
    // before the loop plus what the body touches: planning for that covers every iteration.
    SyncState entry = *state;
    entry.Add(access);
    SyncState exit = entry;
    Stmt body = Plan(op->body, &exit);
    state->Merge(exit);  // what was pending before stays pending if the loop runs zero times
    return ir::ForNode::Make(op->loop_var, op->min, op->extent, op->for_kind, body, op->thread_tag);
  }

  Stmt PlanIf(const ir::IfThenElseNode* op, const Stmt& s, const BufferAccess& access,
              SyncState* state) {
    if (!IsUniform(op->condition)) return DivergentUnit(s, access, state);
    SyncState else_state = *state;
    Stmt then_case = Plan(op->then_case, state);
    Stmt else_case = op->else_case.defined() ? Plan(op->else_case, &else_state) : op->else_case;
    state->Merge(else_state);
    return ir::IfThenElseNode::Make(op->condition, then_case, else_case);
  }

  Stmt PlanAttr(const ir::AttrStmtNode* op, SyncState* state) {
    auto rebuild = [&] {
      return ir::AttrStmtNode::Make(op->node, op->key, op->value, Plan(op->body, state));
    };
    if (IsThreadIdxAttr(op)) return ThreadRegion(std::get<ir::IterVar>(op->node)->var, rebuild);
    return rebuild();
  }

  // A branch or loop the threads do not all take alike: one unit, no barrier inside. Notes whether
  // it would have needed one, planning it as if it were uniform.
  Stmt DivergentUnit(const Stmt& s, const BufferAccess& access, SyncState* state) {
    state->Add(access);
    if (thread_depth_ > 0 && !divergent_hazard_) {
      SyncPlanner probe(shared_);
      probe.thread_depth_ = 1;
      SyncState fresh;
      divergent_hazard_ = CountBarriers(probe.Plan(s, &fresh)) > 0;
    }
    return s;
  }

  template <typename F>
  Stmt ThreadRegion(const ir::Var& thread_var, F&& plan_body) {
    thread_vars_.insert(thread_var.get());
    ++thread_depth_;
    Stmt out = plan_body();
    --thread_depth_;
    thread_vars_.erase(thread_var.get());
    return out;
  }

  // Same value in every thread of a block: no thread index and no memory read in it.
  bool IsUniform(const ir::Expr& e) const { return !UsesAnyVar(e, thread_vars_) && !HasLoad(e); }

  BufferAccess SharedAccess(const Stmt& s) const {
    BufferAccess all = CollectAccess(s), shared;
    for (const auto* v : all.reads) {
      if (shared_.count(v)) shared.reads.insert(v);
    }
    for (const auto* v : all.writes) {
      if (shared_.count(v)) shared.writes.insert(v);
    }
    return shared;
  }

  VarSet shared_;
  bool divergent_hazard_ = false;
  VarSet thread_vars_;  // vary across the threads of a block
  int thread_depth_ = 0;
};

}  // namespace

absl::StatusOr<ir::PrimFunc> ThreadSync(ir::PrimFunc f) {
  VarSet shared;
  for (const auto& [var, scope] : AllocationScopes(f.body)) {
    if (scope == "shared") shared.insert(var);
  }
  if (shared.empty()) return f;
  SyncState state;
  SyncPlanner planner(std::move(shared));
  f.body = planner.Plan(f.body, &state);
  if (planner.divergent_hazard()) {
    PassLogger().warn(
        "thread_sync: {} may read shared memory other threads write inside a branch or loop "
        "that varies across threads; no barrier can go there (make the split divide evenly?)",
        f.name);
  }
  return f;
}

}  // namespace tunefarm::passes
