#include "compiler/ir/visitor.h"

namespace tunefarm::ir {

void Visitor::VisitRange(const Range& r) {
  if (r.min.defined()) VisitExpr(r.min);
  if (r.extent.defined()) VisitExpr(r.extent);
}

void Visitor::VisitExpr_(const IntImmNode*) {}
void Visitor::VisitExpr_(const FloatImmNode*) {}
void Visitor::VisitExpr_(const StringImmNode*) {}
void Visitor::VisitExpr_(const VarNode*) {}

#define TF_VISIT_BINARY(Name)                      \
  void Visitor::VisitExpr_(const Name##Node* op) { \
    VisitExpr(op->a);                              \
    VisitExpr(op->b);                              \
  }
TF_IR_BINARY_NODES(TF_VISIT_BINARY)
#undef TF_VISIT_BINARY

void Visitor::VisitExpr_(const NotNode* op) { VisitExpr(op->a); }
void Visitor::VisitExpr_(const SelectNode* op) {
  VisitExpr(op->condition);
  VisitExpr(op->true_value);
  VisitExpr(op->false_value);
}
void Visitor::VisitExpr_(const CastNode* op) { VisitExpr(op->value); }
void Visitor::VisitExpr_(const RampNode* op) {
  VisitExpr(op->base);
  VisitExpr(op->stride);
}
void Visitor::VisitExpr_(const BroadcastNode* op) { VisitExpr(op->value); }
void Visitor::VisitExpr_(const LetNode* op) {
  VisitExpr(op->value);
  VisitExpr(op->body);
}
void Visitor::VisitExpr_(const CallNode* op) {
  for (const auto& a : op->args) VisitExpr(a);
}
void Visitor::VisitExpr_(const BufferLoadNode* op) {
  for (const auto& i : op->indices) VisitExpr(i);
}
void Visitor::VisitExpr_(const LoadNode* op) { VisitExpr(op->index); }
void Visitor::VisitExpr_(const ReduceNode* op) {
  for (const auto& iv : op->axis) VisitRange(iv->dom);
  VisitExpr(op->source);
  VisitExpr(op->condition);
}

void Visitor::VisitStmt_(const LetStmtNode* op) {
  VisitExpr(op->value);
  VisitStmt(op->body);
}
void Visitor::VisitStmt_(const AttrStmtNode* op) {
  if (op->value.defined()) VisitExpr(op->value);
  VisitStmt(op->body);
}
void Visitor::VisitStmt_(const AssertStmtNode* op) {
  VisitExpr(op->condition);
  VisitStmt(op->body);
}
void Visitor::VisitStmt_(const BufferStoreNode* op) {
  VisitExpr(op->value);
  for (const auto& i : op->indices) VisitExpr(i);
}
void Visitor::VisitStmt_(const BufferRealizeNode* op) {
  for (const auto& r : op->bounds) VisitRange(r);
  VisitStmt(op->body);
}
void Visitor::VisitStmt_(const StoreNode* op) {
  VisitExpr(op->value);
  VisitExpr(op->index);
}
void Visitor::VisitStmt_(const AllocateNode* op) {
  for (const auto& e : op->extents) VisitExpr(e);
  VisitStmt(op->body);
}
void Visitor::VisitStmt_(const ForNode* op) {
  VisitExpr(op->min);
  VisitExpr(op->extent);
  VisitStmt(op->body);
}
void Visitor::VisitStmt_(const SeqStmtNode* op) {
  for (const auto& s : op->seq) VisitStmt(s);
}
void Visitor::VisitStmt_(const IfThenElseNode* op) {
  VisitExpr(op->condition);
  VisitStmt(op->then_case);
  if (op->else_case.defined()) VisitStmt(op->else_case);
}
void Visitor::VisitStmt_(const EvaluateNode* op) { VisitExpr(op->value); }

namespace {

class LambdaVisitor : public Visitor {
 public:
  explicit LambdaVisitor(const std::function<void(const Expr&)>& f) : f_(f) {}
  void VisitExpr(const Expr& e) override {
    Visitor::VisitExpr(e);
    f_(e);
  }

 private:
  const std::function<void(const Expr&)>& f_;
};

}  // namespace

void PostOrderVisit(const Expr& e, const std::function<void(const Expr&)>& f) {
  LambdaVisitor(f).VisitExpr(e);
}
void PostOrderVisit(const Stmt& s, const std::function<void(const Expr&)>& f) {
  LambdaVisitor(f).VisitStmt(s);
}

}  // namespace tunefarm::ir
