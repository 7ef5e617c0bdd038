// CodeBuilder, scopes and checks: which variables and buffers are bound where, which types the
// interpreter runs, and the sticky first error.
#include "absl/strings/str_cat.h"
#include "compiler/interp/code_builder.h"
#include "compiler/interp/expr_code.h"
#include "compiler/ir/printer.h"

namespace tunefarm::interp {

int CodeBuilder::BindVar(const ir::Var& v) {
  auto [it, inserted] = vars_.try_emplace(v.get());
  if (inserted) {
    it->second.slot = next_slot_;
    next_slot_ += v.dtype().lanes();
  }
  ++it->second.bound;
  return it->second.slot;
}

void CodeBuilder::UnbindVar(const ir::Var& v) { --vars_[v.get()].bound; }

int CodeBuilder::BindBufferVar(const ir::Var& v, ir::DataType elem) {
  auto [it, inserted] = buffer_vars_.try_emplace(v.get());
  if (inserted) it->second.slot = static_cast<int>(buffer_vars_.size()) - 1;
  it->second.elem.push_back(elem);
  return it->second.slot;
}

void CodeBuilder::UnbindBufferVar(const ir::Var& v) { buffer_vars_[v.get()].elem.pop_back(); }

int CodeBuilder::BufferVarSlot(const ir::Var& v, const char* what, ir::DataType* elem) {
  auto it = buffer_vars_.find(v.get());
  if (it == buffer_vars_.end() || it->second.elem.empty()) {
    Fail(absl::InvalidArgumentError(
        absl::StrCat(what, " of ", v.name(),
                     ", which is neither a parameter's data nor allocated in an enclosing scope")));
    return -1;
  }
  *elem = it->second.elem.back();
  return it->second.slot;
}

CodeBuilder::TensorInfo* CodeBuilder::FindTensor(const ir::Buffer& b, const char* what) {
  auto it = tensors_.find(b.get());
  if (it == tensors_.end() || it->second.bound == 0) {
    Fail(absl::InvalidArgumentError(
        absl::StrCat(what, " of ", b->name,
                     ", which is neither a parameter nor realized in an enclosing scope")));
    return nullptr;
  }
  return &it->second;
}

bool CodeBuilder::ParseScope(const std::string& scope, const std::string& name, MemScope* out) {
  auto starts = [&](const char* prefix) { return scope.rfind(prefix, 0) == 0; };
  if (scope.empty() || scope == "global") {
    *out = MemScope::kGlobal;
  } else if (starts("shared")) {
    *out = MemScope::kShared;
  } else if (starts("local") || scope == "warp") {
    *out = MemScope::kLocal;
  } else {
    Fail(absl::UnimplementedError(absl::StrCat("storage scope '", scope, "' of ", name)));
    return false;
  }
  return true;
}

bool CodeBuilder::CheckType(ir::DataType t) {
  const bool ok =
      (t.is_float() && (t.bits() == 32 || t.bits() == 64)) || t.is_bool() ||
      (t.is_integral() && (t.bits() == 8 || t.bits() == 16 || t.bits() == 32 || t.bits() == 64));
  if (ok && t.lanes() >= 1) return true;
  std::string where = visiting_ ? absl::StrCat(" in ", ir::ToString(*visiting_)) : "";
  if (t.is_float() && t.bits() == 16) {
    Fail(absl::UnimplementedError("float16 is not supported by the interpreter" + where));
  } else {
    Fail(absl::InvalidArgumentError(
        absl::StrCat("the interpreter has no values of type ", t.ToString(), where)));
  }
  return false;
}

bool CodeBuilder::CheckIntegral(const ir::Expr& e, const char* what) {
  if (e.dtype().is_integral() && !e.dtype().is_bool()) return true;
  Fail(absl::InvalidArgumentError(
      absl::StrCat(what, " ", ir::ToString(e), " has type ", e.dtype().ToString())));
  return false;
}

void CodeBuilder::Fail(const absl::Status& status) {
  if (error_.ok()) error_ = status;
}

const ExprCode* CodeBuilder::Placeholder(int lanes) {
  return MakeConstCode(arena_, IntLane(0), lanes);
}

const StmtCode* CodeBuilder::PlaceholderStmt() { return arena_.New<EvaluateCode>(nullptr); }

}  // namespace tunefarm::interp
