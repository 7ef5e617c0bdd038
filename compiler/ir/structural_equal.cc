#include "compiler/ir/structural_equal.h"

#include <cstring>
#include <unordered_map>

#include "compiler/ir/check.h"
#include "compiler/ir/visitor.h"

namespace tunefarm::ir {
namespace {

class Comparator {
 public:
  explicit Comparator(bool map_free_vars) : map_free_(map_free_vars) {}

  bool Eq(const Expr& a, const Expr& b) {
    if (a.same_as(b)) return true;
    if (!a.defined() || !b.defined()) return false;
    if (a.kind() != b.kind() || !(a.dtype() == b.dtype())) return false;
    switch (a.kind()) {
      case ExprKind::kIntImm:
        return a.As<IntImmNode>()->value == b.As<IntImmNode>()->value;
      case ExprKind::kFloatImm: {
        double x = a.As<FloatImmNode>()->value, y = b.As<FloatImmNode>()->value;
        return std::memcmp(&x, &y, sizeof x) == 0;
      }
      case ExprKind::kStringImm:
        return a.As<StringImmNode>()->value == b.As<StringImmNode>()->value;
      case ExprKind::kVar:
        return VarEqual(a.As<VarNode>(), b.As<VarNode>());
#define TF_EQ_BINARY(Name)                                 \
  case ExprKind::k##Name: {                                \
    auto *x = a.As<Name##Node>(), *y = b.As<Name##Node>(); \
    return Eq(x->a, y->a) && Eq(x->b, y->b);               \
  }
        TF_IR_BINARY_NODES(TF_EQ_BINARY)
#undef TF_EQ_BINARY
      case ExprKind::kNot:
        return Eq(a.As<NotNode>()->a, b.As<NotNode>()->a);
      case ExprKind::kSelect: {
        auto *x = a.As<SelectNode>(), *y = b.As<SelectNode>();
        return Eq(x->condition, y->condition) && Eq(x->true_value, y->true_value) &&
               Eq(x->false_value, y->false_value);
      }
      case ExprKind::kCast:
        return Eq(a.As<CastNode>()->value, b.As<CastNode>()->value);
      case ExprKind::kRamp: {
        auto *x = a.As<RampNode>(), *y = b.As<RampNode>();
        return x->lanes == y->lanes && Eq(x->base, y->base) && Eq(x->stride, y->stride);
      }
      case ExprKind::kBroadcast: {
        auto *x = a.As<BroadcastNode>(), *y = b.As<BroadcastNode>();
        return x->lanes == y->lanes && Eq(x->value, y->value);
      }
      case ExprKind::kLet: {
        auto *x = a.As<LetNode>(), *y = b.As<LetNode>();
        return Eq(x->value, y->value) && Bind(x->var, y->var) && Eq(x->body, y->body);
      }
      case ExprKind::kCall: {
        auto *x = a.As<CallNode>(), *y = b.As<CallNode>();
        return x->op == y->op && EqList(x->args, y->args);
      }
      case ExprKind::kBufferLoad: {
        auto *x = a.As<BufferLoadNode>(), *y = b.As<BufferLoadNode>();
        return BufferEqual(x->buffer, y->buffer) && EqList(x->indices, y->indices);
      }
      case ExprKind::kLoad: {
        auto *x = a.As<LoadNode>(), *y = b.As<LoadNode>();
        return VarEqual(x->buffer_var.get(), y->buffer_var.get()) && Eq(x->index, y->index);
      }
      case ExprKind::kReduce: {
        auto *x = a.As<ReduceNode>(), *y = b.As<ReduceNode>();
        if (x->combiner->name != y->combiner->name || x->axis.size() != y->axis.size()) {
          return false;
        }
        for (size_t i = 0; i < x->axis.size(); ++i) {
          if (!RangeEq(x->axis[i]->dom, y->axis[i]->dom) ||
              !Bind(x->axis[i]->var, y->axis[i]->var)) {
            return false;
          }
        }
        return Eq(x->source, y->source) && Eq(x->condition, y->condition);
      }
    }
    return false;
  }

  bool Eq(const Stmt& a, const Stmt& b) {
    if (a.same_as(b)) return true;
    if (!a.defined() || !b.defined() || a.kind() != b.kind()) return false;
    switch (a.kind()) {
      case StmtKind::kLetStmt: {
        auto *x = a.As<LetStmtNode>(), *y = b.As<LetStmtNode>();
        return Eq(x->value, y->value) && Bind(x->var, y->var) && Eq(x->body, y->body);
      }
      case StmtKind::kAttrStmt: {
        auto *x = a.As<AttrStmtNode>(), *y = b.As<AttrStmtNode>();
        return x->key == y->key && AttrNodeEqual(x->node, y->node) && Eq(x->value, y->value) &&
               Eq(x->body, y->body);
      }
      case StmtKind::kAssertStmt: {
        auto *x = a.As<AssertStmtNode>(), *y = b.As<AssertStmtNode>();
        return x->message == y->message && Eq(x->condition, y->condition) && Eq(x->body, y->body);
      }
      case StmtKind::kBufferStore: {
        auto *x = a.As<BufferStoreNode>(), *y = b.As<BufferStoreNode>();
        return BufferEqual(x->buffer, y->buffer) && Eq(x->value, y->value) &&
               EqList(x->indices, y->indices);
      }
      case StmtKind::kBufferRealize: {
        auto *x = a.As<BufferRealizeNode>(), *y = b.As<BufferRealizeNode>();
        if (!BufferEqual(x->buffer, y->buffer) || x->bounds.size() != y->bounds.size()) {
          return false;
        }
        for (size_t i = 0; i < x->bounds.size(); ++i) {
          if (!RangeEq(x->bounds[i], y->bounds[i])) return false;
        }
        return Eq(x->body, y->body);
      }
      case StmtKind::kStore: {
        auto *x = a.As<StoreNode>(), *y = b.As<StoreNode>();
        return VarEqual(x->buffer_var.get(), y->buffer_var.get()) && Eq(x->value, y->value) &&
               Eq(x->index, y->index);
      }
      case StmtKind::kAllocate: {
        auto *x = a.As<AllocateNode>(), *y = b.As<AllocateNode>();
        return x->dtype == y->dtype && x->scope == y->scope && EqList(x->extents, y->extents) &&
               Bind(x->buffer_var, y->buffer_var) && Eq(x->body, y->body);
      }
      case StmtKind::kFor: {
        auto *x = a.As<ForNode>(), *y = b.As<ForNode>();
        return x->for_kind == y->for_kind && x->thread_tag == y->thread_tag && Eq(x->min, y->min) &&
               Eq(x->extent, y->extent) && Bind(x->loop_var, y->loop_var) && Eq(x->body, y->body);
      }
      case StmtKind::kSeqStmt: {
        auto *x = a.As<SeqStmtNode>(), *y = b.As<SeqStmtNode>();
        if (x->seq.size() != y->seq.size()) return false;
        for (size_t i = 0; i < x->seq.size(); ++i) {
          if (!Eq(x->seq[i], y->seq[i])) return false;
        }
        return true;
      }
      case StmtKind::kIfThenElse: {
        auto *x = a.As<IfThenElseNode>(), *y = b.As<IfThenElseNode>();
        return Eq(x->condition, y->condition) && Eq(x->then_case, y->then_case) &&
               x->else_case.defined() == y->else_case.defined() &&
               (!x->else_case.defined() || Eq(x->else_case, y->else_case));
      }
      case StmtKind::kEvaluate:
        return Eq(a.As<EvaluateNode>()->value, b.As<EvaluateNode>()->value);
    }
    return false;
  }

 private:
  bool EqList(const std::vector<Expr>& a, const std::vector<Expr>& b) {
    if (a.size() != b.size()) return false;
    for (size_t i = 0; i < a.size(); ++i) {
      if (!Eq(a[i], b[i])) return false;
    }
    return true;
  }
  bool RangeEq(const Range& a, const Range& b) {
    return a.min.defined() == b.min.defined() && a.extent.defined() == b.extent.defined() &&
           (!a.min.defined() || Eq(a.min, b.min)) &&
           (!a.extent.defined() || Eq(a.extent, b.extent));
  }
  // Records that a (a binding occurrence) corresponds to b.
  bool Bind(const Var& a, const Var& b) {
    if (!(a.dtype() == b.dtype())) return false;
    auto [it, inserted] = vars_.emplace(a.get(), b.get());
    return inserted || it->second == b.get();
  }
  bool VarEqual(const VarNode* a, const VarNode* b) {
    auto it = vars_.find(a);
    if (it != vars_.end()) return it->second == b;
    if (a == b) return true;
    if (!map_free_ || !(a->dtype == b->dtype)) return false;
    vars_.emplace(a, b);
    return true;
  }
  bool BufferEqual(const Buffer& a, const Buffer& b) {
    if (a.same_as(b)) return true;
    auto it = buffers_.find(a.get());
    if (it != buffers_.end()) return it->second == b.get();
    if (a->name != b->name || !(a->dtype == b->dtype) || a->scope != b->scope ||
        !EqList(a->shape, b->shape)) {
      return false;
    }
    buffers_.emplace(a.get(), b.get());
    vars_.emplace(a->data.get(), b->data.get());
    return true;
  }
  bool AttrNodeEqual(const AttrNodeRef& a, const AttrNodeRef& b) {
    if (a.index() != b.index()) return false;
    if (const auto* x = std::get_if<IterVar>(&a)) {
      const auto& y = std::get<IterVar>(b);
      return (*x)->thread_tag == y->thread_tag && Bind((*x)->var, y->var);
    }
    if (const auto* x = std::get_if<Var>(&a)) return VarEqual(x->get(), std::get<Var>(b).get());
    if (const auto* x = std::get_if<Buffer>(&a)) return BufferEqual(*x, std::get<Buffer>(b));
    return true;
  }

  bool map_free_;
  std::unordered_map<const VarNode*, const VarNode*> vars_;
  std::unordered_map<const BufferNode*, const BufferNode*> buffers_;
};

// Hashes by walking with the printer-independent shape: kinds, types, constants, and variable
// first-appearance indices.
class Hasher : public Visitor {
 public:
  size_t value() const { return h_; }

  void VisitExpr(const Expr& e) override {
    Mix(static_cast<size_t>(e.kind()) * 131 + 7);
    Mix(static_cast<size_t>(e.dtype().code()) << 24 | e.dtype().bits() << 16 | e.dtype().lanes());
    Visitor::VisitExpr(e);
  }
  void VisitStmt(const Stmt& s) override {
    Mix(static_cast<size_t>(s.kind()) * 977 + 13);
    Visitor::VisitStmt(s);
  }

 protected:
  void VisitExpr_(const IntImmNode* op) override { Mix(std::hash<int64_t>()(op->value)); }
  void VisitExpr_(const FloatImmNode* op) override { Mix(std::hash<double>()(op->value)); }
  void VisitExpr_(const StringImmNode* op) override { Mix(std::hash<std::string>()(op->value)); }
  void VisitExpr_(const VarNode* op) override { MixVar(op); }
  void VisitExpr_(const CallNode* op) override {
    Mix(static_cast<size_t>(op->op));
    Visitor::VisitExpr_(op);
  }
  void VisitExpr_(const LoadNode* op) override {
    MixVar(op->buffer_var.get());
    Visitor::VisitExpr_(op);
  }
  void VisitExpr_(const BufferLoadNode* op) override {
    Mix(std::hash<std::string>()(op->buffer->name));
    Visitor::VisitExpr_(op);
  }
  void VisitStmt_(const ForNode* op) override {
    MixVar(op->loop_var.get());
    Mix(static_cast<size_t>(op->for_kind));
    Visitor::VisitStmt_(op);
  }
  void VisitStmt_(const StoreNode* op) override {
    MixVar(op->buffer_var.get());
    Visitor::VisitStmt_(op);
  }
  void VisitStmt_(const BufferStoreNode* op) override {
    Mix(std::hash<std::string>()(op->buffer->name));
    Visitor::VisitStmt_(op);
  }
  void VisitStmt_(const AttrStmtNode* op) override {
    Mix(std::hash<std::string>()(op->key));
    Visitor::VisitStmt_(op);
  }

 private:
  void Mix(size_t v) { h_ ^= v + 0x9e3779b97f4a7c15ULL + (h_ << 6) + (h_ >> 2); }
  void MixVar(const VarNode* v) {
    auto [it, inserted] = order_.emplace(v, order_.size());
    Mix(it->second * 1000003 + 17);
  }

  size_t h_ = 0;
  std::unordered_map<const VarNode*, size_t> order_;
};

}  // namespace

bool StructuralEqual(const Expr& a, const Expr& b, bool map_free_vars) {
  return Comparator(map_free_vars).Eq(a, b);
}
bool StructuralEqual(const Stmt& a, const Stmt& b, bool map_free_vars) {
  return Comparator(map_free_vars).Eq(a, b);
}

size_t StructuralHash(const Expr& e) {
  Hasher h;
  h.VisitExpr(e);
  return h.value();
}
size_t StructuralHash(const Stmt& s) {
  Hasher h;
  h.VisitStmt(s);
  return h.value();
}

}  // namespace tunefarm::ir
