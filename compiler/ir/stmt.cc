#include "compiler/ir/stmt.h"

#include "compiler/ir/check.h"

namespace tunefarm::ir {
namespace {

template <typename T, typename... Args>
Stmt NewStmt(Args&&... args) {
  return Stmt(std::make_shared<const T>(std::forward<Args>(args)...));
}

}  // namespace

const char* ForKindName(ForKind kind) {
  switch (kind) {
    case ForKind::kSerial:
      return "for";
    case ForKind::kParallel:
      return "parallel";
    case ForKind::kVectorized:
      return "vectorized";
    case ForKind::kUnrolled:
      return "unrolled";
    case ForKind::kThreadBinding:
      return "thread_binding";
  }
  return "?";
}

Stmt LetStmtNode::Make(Var var, Expr value, Stmt body) {
  TF_CHECK(var.dtype() == value.dtype()) << "LetStmt " << var.name() << ": type";
  return NewStmt<LetStmtNode>(std::move(var), std::move(value), std::move(body));
}

Stmt AttrStmtNode::Make(AttrNodeRef node, std::string key, Expr value, Stmt body) {
  return NewStmt<AttrStmtNode>(std::move(node), std::move(key), std::move(value), std::move(body));
}

Stmt AssertStmtNode::Make(Expr condition, std::string message, Stmt body) {
  TF_CHECK(condition.dtype().is_bool()) << "assert of non-bool";
  return NewStmt<AssertStmtNode>(std::move(condition), std::move(message), std::move(body));
}

Stmt BufferStoreNode::Make(Buffer buffer, Expr value, std::vector<Expr> indices) {
  TF_CHECK(indices.size() == buffer->shape.size())
      << "BufferStore " << buffer->name << ": " << indices.size() << " indices for rank "
      << buffer->shape.size();
  TF_CHECK(value.dtype().element_of() == buffer->dtype)
      << "BufferStore " << buffer->name << ": value " << value.dtype().ToString();
  return NewStmt<BufferStoreNode>(std::move(buffer), std::move(value), std::move(indices));
}

Stmt BufferRealizeNode::Make(Buffer buffer, std::vector<Range> bounds, Stmt body) {
  TF_CHECK(bounds.size() == buffer->shape.size()) << "BufferRealize " << buffer->name;
  return NewStmt<BufferRealizeNode>(std::move(buffer), std::move(bounds), std::move(body));
}

Stmt StoreNode::Make(Var buffer_var, Expr value, Expr index) {
  TF_CHECK(value.dtype().lanes() == index.dtype().lanes()) << "Store " << buffer_var.name();
  return NewStmt<StoreNode>(std::move(buffer_var), std::move(value), std::move(index));
}

Stmt AllocateNode::Make(Var buffer_var, DataType dtype, std::vector<Expr> extents,
                        std::string scope, Stmt body) {
  return NewStmt<AllocateNode>(std::move(buffer_var), dtype, std::move(extents), std::move(scope),
                               std::move(body));
}

Stmt ForNode::Make(Var loop_var, Expr min, Expr extent, ForKind kind, Stmt body,
                   std::string thread_tag) {
  TF_CHECK(min.dtype() == loop_var.dtype() && extent.dtype() == loop_var.dtype())
      << "For " << loop_var.name() << ": min/extent type";
  return NewStmt<ForNode>(std::move(loop_var), std::move(min), std::move(extent), kind,
                          std::move(body), std::move(thread_tag));
}

Stmt SeqStmtNode::Make(std::vector<Stmt> seq) {
  std::vector<Stmt> flat;
  for (auto& s : seq) {
    if (!s.defined() || IsNop(s)) continue;
    if (const auto* inner = s.As<SeqStmtNode>()) {
      flat.insert(flat.end(), inner->seq.begin(), inner->seq.end());
    } else {
      flat.push_back(std::move(s));
    }
  }
  if (flat.empty()) return MakeNop();
  if (flat.size() == 1) return flat[0];
  return NewStmt<SeqStmtNode>(std::move(flat));
}

Stmt IfThenElseNode::Make(Expr condition, Stmt then_case, Stmt else_case) {
  TF_CHECK(condition.dtype().is_bool()) << "if of non-bool";
  return NewStmt<IfThenElseNode>(std::move(condition), std::move(then_case), std::move(else_case));
}

Stmt EvaluateNode::Make(Expr value) { return NewStmt<EvaluateNode>(std::move(value)); }

Stmt MakeNop() { return EvaluateNode::Make(IntImm(DataType::Int(32), 0)); }

bool IsNop(const Stmt& s) {
  const auto* e = s.As<EvaluateNode>();
  return e && e->value.As<IntImmNode>() != nullptr;
}

}  // namespace tunefarm::ir
