#include "compiler/passes/inject_virtual_thread.h"

#include <atomic>
#include <optional>
#include <spdlog/spdlog.h>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "compiler/ir/mutator.h"
#include "compiler/ir/op.h"
#include "compiler/passes/buffer_access.h"
#include "compiler/passes/pass.h"

namespace tunefarm::passes {
namespace {

using ir::Expr;
using ir::Stmt;
using ScopeMap = std::unordered_map<const ir::VarNode*, std::string>;

// Virtual-thread loops up to this extent are marked unrolled, so each copy gets constant indices.
constexpr int64_t kMaxUnrolledVThreads = 16;

Expr AddOffset(const Expr& index, const Expr& offset) {
  if (const auto* ramp = index.As<ir::RampNode>()) {
    return ir::RampNode::Make(ramp->base + offset, ramp->stride, ramp->lanes);
  }
  return index + offset;
}

// Moves every access to one buffer by `offset`: the copy of one virtual thread.
class AccessOffsetter : public ir::Mutator {
 public:
  AccessOffsetter(const ir::VarNode* buffer_var, Expr offset)
      : buffer_var_(buffer_var), offset_(std::move(offset)) {}

 protected:
  Expr VisitExpr_(const ir::LoadNode* op) override {
    Expr index = VisitExpr(op->index);
    if (op->buffer_var.get() != buffer_var_) {
      return index.same_as(op->index) ? Self(op)
                                      : ir::LoadNode::Make(op->dtype, op->buffer_var, index);
    }
    return ir::LoadNode::Make(op->dtype, op->buffer_var, AddOffset(index, offset_));
  }
  Stmt VisitStmt_(const ir::StoreNode* op) override {
    Stmt s = Mutator::VisitStmt_(op);
    const auto* store = s.As<ir::StoreNode>();
    if (store->buffer_var.get() != buffer_var_) return s;
    return ir::StoreNode::Make(store->buffer_var, store->value, AddOffset(store->index, offset_));
  }

 private:
  const ir::VarNode* buffer_var_;
  Expr offset_;
};

// Pushes the loop over one virtual thread down the statement tree (rules in the header).
class VThreadInjector {
 public:
  VThreadInjector(ir::Var v, Expr extent, const ScopeMap& scopes)
      : v_(std::move(v)), extent_(ir::Cast(v_.dtype(), std::move(extent))), scopes_(scopes) {}

  Stmt Inject(const Stmt& s) {
    if (!UsesVar(s, v_) && !RerunsDiffer(s)) return s;
    if (!TouchesShared(s)) return Wrap(s);
    switch (s.kind()) {
      case ir::StmtKind::kSeqStmt: {
        std::vector<Stmt> seq;
        for (const auto& child : s.As<ir::SeqStmtNode>()->seq) seq.push_back(Inject(child));
        return ir::SeqStmtNode::Make(std::move(seq));
      }
      case ir::StmtKind::kFor: {
        const auto* op = s.As<ir::ForNode>();
        if (UsesVar(op->min, v_) || UsesVar(op->extent, v_)) return WrapSerializing(s);
        return ir::ForNode::Make(op->loop_var, op->min, op->extent, op->for_kind, Inject(op->body),
                                 op->thread_tag);
      }
      case ir::StmtKind::kAttrStmt: {
        const auto* op = s.As<ir::AttrStmtNode>();
        if (op->value.defined() && UsesVar(op->value, v_)) return WrapSerializing(s);
        return ir::AttrStmtNode::Make(op->node, op->key, op->value, Inject(op->body));
      }
      case ir::StmtKind::kIfThenElse: {
        const auto* op = s.As<ir::IfThenElseNode>();
        if (UsesVar(op->condition, v_)) return WrapSerializing(s);
        Stmt else_case = op->else_case.defined() ? Inject(op->else_case) : op->else_case;
        return ir::IfThenElseNode::Make(op->condition, Inject(op->then_case), else_case);
      }
      case ir::StmtKind::kLetStmt: {
        const auto* op = s.As<ir::LetStmtNode>();
        if (UsesVar(op->value, v_)) {
          // One value per virtual thread: inline it so the body can still be split.
          return Inject(ir::Substitute(op->body, {{op->var.get(), op->value}}));
        }
        return ir::LetStmtNode::Make(op->var, op->value, Inject(op->body));
      }
      case ir::StmtKind::kAllocate:
        return InjectAllocate(s.As<ir::AllocateNode>(), s);
      default:
        return Wrap(s);
    }
  }

 private:
  Stmt InjectAllocate(const ir::AllocateNode* op, const Stmt& s) {
    for (const auto& e : op->extents) {
      if (UsesVar(e, v_)) return WrapSerializing(s);
    }
    if (op->scope == "shared") {
      return ir::AllocateNode::Make(op->buffer_var, op->dtype, op->extents, op->scope,
                                    Inject(op->body));
    }
    Expr size = ir::MakeOne(extent_.dtype());
    for (const auto& e : op->extents) size = size * e;
    Stmt body = AccessOffsetter(op->buffer_var.get(), v_ * size).VisitStmt(op->body);
    return ir::AllocateNode::Make(op->buffer_var, op->dtype, {size * extent_}, op->scope,
                                  Inject(body));
  }

  // Whether running s V times differs from running it once: it reads what it writes.
  static bool RerunsDiffer(const Stmt& s) {
    BufferAccess access = CollectAccess(s);
    for (const auto* w : access.writes) {
      if (access.reads.count(w)) return true;
    }
    return false;
  }

  bool TouchesShared(const Stmt& s) const {
    BufferAccess access = CollectAccess(s);
    for (const auto& [var, scope] : scopes_) {
      if (scope == "shared" && access.Touches(var)) return true;
    }
    return false;
  }

  Stmt Wrap(const Stmt& s) const {
    std::optional<int64_t> n = ir::AsConstInt(extent_);
    ir::ForKind kind =
        n && *n <= kMaxUnrolledVThreads ? ir::ForKind::kUnrolled : ir::ForKind::kSerial;
    return ir::ForNode::Make(v_, ir::MakeZero(v_.dtype()), extent_, kind, s);
  }

  Stmt WrapSerializing(const Stmt& s) const {
    // A warning once per process, then debug: a tuning run lowers thousands of candidates of the
    // same template, and the same note on each would bury everything else.
    static std::atomic<bool> warned{false};
    const spdlog::level::level_enum level =
        warned.exchange(true) ? spdlog::level::debug : spdlog::level::warn;
    PassLogger().log(level,
                     "inject_virtual_thread: a statement reaching shared memory depends on {} in "
                     "its header; its virtual threads run one after another",
                     v_.name());
    return Wrap(s);
  }

  ir::Var v_;
  Expr extent_;
  const ScopeMap& scopes_;
};

class VThreadRewriter : public ir::Mutator {
 public:
  explicit VThreadRewriter(ScopeMap scopes) : scopes_(std::move(scopes)) {}
  const absl::Status& status() const { return status_; }

 protected:
  Stmt VisitStmt_(const ir::AttrStmtNode* op) override {
    Stmt s = Mutator::VisitStmt_(op);  // inner virtual threads first
    const auto* attr = s.As<ir::AttrStmtNode>();
    if (!attr || attr->key != ir::attr::kVirtualThread) return s;
    const auto* iv = std::get_if<ir::IterVar>(&attr->node);
    if (!iv || !attr->value.defined()) {
      if (status_.ok())
        status_ =
            absl::InvalidArgumentError("virtual_thread attribute without an IterVar and extent");
      return s;
    }
    return VThreadInjector((*iv)->var, attr->value, scopes_).Inject(attr->body);
  }

 private:
  ScopeMap scopes_;
  absl::Status status_;
};

}  // namespace

absl::StatusOr<ir::PrimFunc> InjectVirtualThread(ir::PrimFunc f) {
  VThreadRewriter rewriter(AllocationScopes(f.body));
  f.body = rewriter.VisitStmt(f.body);
  if (!rewriter.status().ok()) return rewriter.status();
  return f;
}

}  // namespace tunefarm::passes
