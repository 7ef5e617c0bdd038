#include "compiler/passes/verify.h"

#include <optional>
#include <string>
#include <unordered_map>
#include <unordered_set>

#include "absl/strings/str_cat.h"
#include "compiler/ir/visitor.h"

namespace tunefarm::passes {
namespace {

using ir::VarNode;

// Walks the function with the set of defined variables and live buffers as scopes.
class Verifier : public ir::Visitor {
 public:
  Verifier(const ir::PrimFunc& f, bool flattened) : flattened_(flattened) {
    for (const auto& p : f.params) {
      params_.insert(p.get());
      buffer_types_[p->data.get()] = p->dtype;
      for (const auto& dim : p->shape) {
        ir::PostOrderVisit(dim, [&](const ir::Expr& e) {
          if (const auto* v = e.As<VarNode>()) defined_[v] = 1;
        });
      }
    }
  }

  absl::Status status() const {
    return error_.empty() ? absl::OkStatus() : absl::InternalError(error_);
  }

 protected:
  void VisitExpr_(const VarNode* op) override {
    if (defined_[op] == 0) Fail(absl::StrCat("variable '", op->name, "' is used but not defined"));
  }
  void VisitExpr_(const ir::LetNode* op) override {
    VisitExpr(op->value);
    Scoped(op->var.get(), [&] { VisitExpr(op->body); });
  }
  void VisitExpr_(const ir::ReduceNode* op) override {
    for (const auto& iv : op->axis) ++defined_[iv->var.get()];
    ir::Visitor::VisitExpr_(op);
    for (const auto& iv : op->axis) --defined_[iv->var.get()];
  }
  void VisitExpr_(const ir::CallNode* op) override {
    if (op->op == ir::Intrinsic::kSyncThreads) Fail("sync_threads() inside an expression");
    ir::Visitor::VisitExpr_(op);
  }
  void VisitExpr_(const ir::LoadNode* op) override {
    CheckFlatAccess(op->buffer_var.get(), op->dtype, "Load");
    ir::Visitor::VisitExpr_(op);
  }
  void VisitExpr_(const ir::BufferLoadNode* op) override {
    CheckBufferAccess(op->buffer, "BufferLoad");
    ir::Visitor::VisitExpr_(op);
  }

  void VisitStmt_(const ir::StoreNode* op) override {
    CheckFlatAccess(op->buffer_var.get(), op->value.dtype(), "Store");
    ir::Visitor::VisitStmt_(op);
  }
  void VisitStmt_(const ir::BufferStoreNode* op) override {
    CheckBufferAccess(op->buffer, "BufferStore");
    ir::Visitor::VisitStmt_(op);
  }
  void VisitStmt_(const ir::BufferRealizeNode* op) override {
    if (flattened_) Fail(absl::StrCat("BufferRealize of ", op->buffer->name, " after flattening"));
    for (const auto& r : op->bounds) VisitRange(r);
    bool inserted = realized_.insert(op->buffer.get()).second;
    VisitStmt(op->body);
    if (inserted) realized_.erase(op->buffer.get());
  }
  void VisitStmt_(const ir::AllocateNode* op) override {
    for (const auto& e : op->extents) VisitExpr(e);
    auto saved = buffer_types_.find(op->buffer_var.get());
    std::optional<ir::DataType> outer;
    if (saved != buffer_types_.end()) outer = saved->second;
    buffer_types_[op->buffer_var.get()] = op->dtype;
    VisitStmt(op->body);
    if (outer) {
      buffer_types_[op->buffer_var.get()] = *outer;
    } else {
      buffer_types_.erase(op->buffer_var.get());
    }
  }
  void VisitStmt_(const ir::ForNode* op) override {
    VisitExpr(op->min);
    VisitExpr(op->extent);
    Scoped(op->loop_var.get(), [&] { VisitStmt(op->body); });
  }
  void VisitStmt_(const ir::LetStmtNode* op) override {
    VisitExpr(op->value);
    Scoped(op->var.get(), [&] { VisitStmt(op->body); });
  }
  void VisitStmt_(const ir::AttrStmtNode* op) override {
    if (op->value.defined()) VisitExpr(op->value);
    const auto* iv = std::get_if<ir::IterVar>(&op->node);
    bool binds = iv && (op->key == ir::attr::kThreadExtent || op->key == ir::attr::kVirtualThread);
    if (binds) {
      Scoped((*iv)->var.get(), [&] { VisitStmt(op->body); });
    } else {
      VisitStmt(op->body);
    }
  }
  void VisitStmt_(const ir::EvaluateNode* op) override {
    const auto* call = op->value.As<ir::CallNode>();
    if (call && call->op == ir::Intrinsic::kSyncThreads) return;
    VisitExpr(op->value);
  }

 private:
  template <typename F>
  void Scoped(const VarNode* v, F&& visit_body) {
    ++defined_[v];
    visit_body();
    --defined_[v];
  }

  void CheckFlatAccess(const VarNode* buffer_var, ir::DataType type, const char* what) {
    auto it = buffer_types_.find(buffer_var);
    if (it == buffer_types_.end()) {
      Fail(absl::StrCat(what, " of '", buffer_var->name,
                        "', which is neither a parameter nor allocated here"));
    } else if (!(it->second == type.element_of())) {
      Fail(absl::StrCat(what, " of '", buffer_var->name, "' as ", type.ToString(),
                        " but the buffer holds ", it->second.ToString()));
    }
  }

  void CheckBufferAccess(const ir::Buffer& buffer, const char* what) {
    if (flattened_) {
      Fail(absl::StrCat(what, " of ", buffer->name, " after flattening"));
    } else if (!params_.count(buffer.get()) && !realized_.count(buffer.get())) {
      Fail(absl::StrCat(what, " of ", buffer->name, ", which is neither a parameter nor realized"));
    }
  }

  void Fail(std::string message) {
    if (error_.empty()) error_ = std::move(message);
  }

  bool flattened_;
  std::unordered_map<const VarNode*, int> defined_;
  std::unordered_set<const ir::BufferNode*> params_;
  std::unordered_set<const ir::BufferNode*> realized_;
  std::unordered_map<const VarNode*, ir::DataType> buffer_types_;
  std::string error_;
};

}  // namespace

absl::Status VerifyPrimFunc(const ir::PrimFunc& f, bool flattened) {
  if (!f.body.defined())
    return absl::InternalError(absl::StrCat("function ", f.name, " has no body"));
  Verifier verifier(f, flattened);
  verifier.VisitStmt(f.body);
  return verifier.status();
}

}  // namespace tunefarm::passes
