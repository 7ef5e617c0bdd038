// CodeBuilder, statements and scopes: parameters and shape variables first, then the body.
#include <utility>

#include "absl/strings/str_cat.h"
#include "compiler/interp/code_builder.h"
#include "compiler/interp/expr_code.h"
#include "compiler/interp/memory_code.h"
#include "compiler/ir/printer.h"

namespace tunefarm::interp {

absl::StatusOr<std::unique_ptr<Program>> BuildProgram(const ir::PrimFunc& f) {
  auto program = std::make_unique<Program>();
  absl::Status status = CodeBuilder(program.get()).Build(f);
  if (!status.ok()) return status;
  return program;
}

absl::Status CodeBuilder::Build(const ir::PrimFunc& f) {
  if (!f.body.defined()) return absl::InvalidArgumentError("function " + f.name + " has no body");
  BindParams(f);
  program_->body = VisitStmt(f.body);
  program_->num_slots = next_slot_;
  program_->num_buffers = static_cast<int>(buffer_vars_.size());
  program_->num_tensors = static_cast<int>(tensors_.size());
  if (!error_.ok()) {
    return absl::Status(error_.code(), absl::StrCat("function ", f.name, ": ", error_.message()));
  }
  return absl::OkStatus();
}

void CodeBuilder::BindParams(const ir::PrimFunc& f) {
  for (const ir::Buffer& b : f.params) {
    if (!CheckType(b->dtype)) continue;
    if (b->dtype.is_vector() || tensors_.count(b.get()) || buffer_vars_.count(b->data.get())) {
      Fail(absl::InvalidArgumentError(absl::StrCat(
          "parameter ", b->name, " is a vector type or repeats an earlier parameter")));
      continue;
    }
    ParamInfo info{b, BindBufferVar(b->data, b->dtype), static_cast<int>(tensors_.size())};
    tensors_[b.get()] = TensorInfo{info.tensor_slot, /*is_param=*/true, /*bound=*/1};
    program_->params.push_back(std::move(info));
  }
  // Variables first, so that a dimension like `n * 2` may use an `n` bound by a later parameter.
  for (size_t p = 0; p < program_->params.size(); ++p) {
    const auto& shape = program_->params[p].buffer->shape;
    for (size_t d = 0; d < shape.size(); ++d) {
      const auto* var = shape[d].As<ir::VarNode>();
      if (var == nullptr || !CheckIntegral(shape[d], "shape")) continue;
      const ir::Var v(std::static_pointer_cast<const ir::VarNode>(shape[d].node_ptr()));
      const bool binds = vars_.count(var) == 0;
      const int slot = binds ? BindVar(v) : vars_[var].slot;
      program_->shape_vars.push_back({static_cast<int>(p), static_cast<int>(d), slot, v, binds});
    }
  }
  for (size_t p = 0; p < program_->params.size(); ++p) {
    const auto& shape = program_->params[p].buffer->shape;
    for (size_t d = 0; d < shape.size(); ++d) {
      if (shape[d].As<ir::VarNode>() != nullptr || !CheckIntegral(shape[d], "shape")) continue;
      program_->shape_checks.push_back(
          {static_cast<int>(p), static_cast<int>(d), VisitExpr(shape[d])});
    }
  }
}

const StmtCode* CodeBuilder::VisitStmt_(const ir::LetStmtNode* op) {
  const ExprCode* value = VisitExpr(op->value);
  if (!CheckType(op->var.dtype())) return PlaceholderStmt();
  const int slot = BindVar(op->var);
  const StmtCode* body = VisitStmt(op->body);
  UnbindVar(op->var);
  return arena_.New<LetStmtCode>(slot, value, body);
}

const StmtCode* CodeBuilder::VisitStmt_(const ir::AttrStmtNode* op) {
  const bool thread = op->key == ir::attr::kThreadExtent;
  if (!thread && op->key != ir::attr::kVirtualThread) return VisitStmt(op->body);
  const auto* iv = std::get_if<ir::IterVar>(&op->node);
  if (iv == nullptr || !iv->defined() || !op->value.defined()) {
    Fail(absl::InvalidArgumentError(
        absl::StrCat("attribute ", op->key, " needs an IterVar and a value")));
    return PlaceholderStmt();
  }
  const std::string tag = thread ? (*iv)->thread_tag : "vthread";
  return BuildThreadAttr(*iv, tag, ir::Expr(), op->value, op->body);
}

// Thread-bound loops and thread_extent attributes share this; "vthread" runs like a serial loop.
const StmtCode* CodeBuilder::BuildThreadAttr(const ir::IterVar& iv, const std::string& tag,
                                             const ir::Expr& min, const ir::Expr& extent,
                                             const ir::Stmt& body) {
  const ir::Var& var = iv->var;
  if (tag.rfind("vthread", 0) == 0) {
    return BuildLoop(var, min.defined() ? min : ir::MakeZero(var.dtype()), extent, body);
  }
  const int index = ThreadTagIndex(tag);
  if (index < 0) {
    Fail(absl::UnimplementedError(absl::StrCat("unknown thread tag '", tag, "' on ", var.name())));
    return PlaceholderStmt();
  }
  const ExprCode* cmin = min.defined() ? VisitExpr(min) : nullptr;
  const ExprCode* cextent = VisitExpr(extent);
  CheckIntegral(extent, "thread extent");
  const int slot = BindVar(var);
  const StmtCode* cbody = VisitStmt(body);
  UnbindVar(var);
  return arena_.New<ThreadLaunchCode>(index, slot, cmin, cextent, cbody);
}

const StmtCode* CodeBuilder::BuildLoop(const ir::Var& var, const ir::Expr& min,
                                       const ir::Expr& extent, const ir::Stmt& body) {
  const ExprCode* cmin = VisitExpr(min);
  const ExprCode* cextent = VisitExpr(extent);
  if (!CheckIntegral(min, "loop min") || !CheckIntegral(extent, "loop extent")) {
    return PlaceholderStmt();
  }
  const int slot = BindVar(var);
  const StmtCode* cbody = VisitStmt(body);
  UnbindVar(var);
  return arena_.New<ForCode>(slot, var.dtype(), cmin, cextent, cbody);
}

const StmtCode* CodeBuilder::VisitStmt_(const ir::ForNode* op) {
  if (op->for_kind == ir::ForKind::kThreadBinding && !op->thread_tag.empty()) {
    const ir::IterVar iv(ir::Range::FromMinExtent(op->min, op->extent), op->loop_var,
                         ir::IterVarType::kThreadIndex, op->thread_tag);
    return BuildThreadAttr(iv, op->thread_tag, op->min, op->extent, op->body);
  }
  return BuildLoop(op->loop_var, op->min, op->extent, op->body);
}

const StmtCode* CodeBuilder::VisitStmt_(const ir::AssertStmtNode* op) {
  const ExprCode* c = VisitExpr(op->condition);
  const StmtCode* body = VisitStmt(op->body);
  return arena_.New<AssertCode>(c, op->message, body);
}

const StmtCode* CodeBuilder::VisitStmt_(const ir::SeqStmtNode* op) {
  std::vector<const StmtCode*> seq;
  for (const ir::Stmt& s : op->seq) seq.push_back(VisitStmt(s));
  return arena_.New<SeqCode>(std::move(seq));
}

const StmtCode* CodeBuilder::VisitStmt_(const ir::IfThenElseNode* op) {
  const ExprCode* c = VisitExpr(op->condition);
  if (op->condition.dtype().is_vector()) {
    Fail(absl::InvalidArgumentError("if with a vector condition " + ir::ToString(op->condition)));
  }
  const StmtCode* then_case = VisitStmt(op->then_case);
  const StmtCode* else_case = op->else_case.defined() ? VisitStmt(op->else_case) : nullptr;
  return arena_.New<IfCode>(c, then_case, else_case);
}

const StmtCode* CodeBuilder::VisitStmt_(const ir::EvaluateNode* op) {
  const auto* call = op->value.As<ir::CallNode>();
  if (call != nullptr && call->op == ir::Intrinsic::kSyncThreads) return arena_.New<BarrierCode>();
  if (op->value.As<ir::IntImmNode>() != nullptr) return arena_.New<EvaluateCode>(nullptr);
  return arena_.New<EvaluateCode>(VisitExpr(op->value));
}

const StmtCode* CodeBuilder::VisitStmt_(const ir::StoreNode* op) {
  const ExprCode* value = VisitExpr(op->value);
  const ExprCode* index = VisitExpr(op->index);
  ir::DataType elem;
  const int slot = BufferVarSlot(op->buffer_var, "Store", &elem);
  if (slot < 0 || !CheckType(op->value.dtype()) || !CheckIntegral(op->index, "Store index")) {
    return PlaceholderStmt();
  }
  if (!(elem == op->value.dtype().element_of())) {
    Fail(absl::InvalidArgumentError(absl::StrCat("Store of ", op->value.dtype().ToString(),
                                                 " into ", op->buffer_var.name(), ", which holds ",
                                                 elem.ToString())));
    return PlaceholderStmt();
  }
  return MakeStoreCode(arena_, elem, slot, index, value, op->buffer_var.name());
}

const StmtCode* CodeBuilder::VisitStmt_(const ir::BufferStoreNode* op) {
  const ExprCode* value = VisitExpr(op->value);
  std::vector<const ExprCode*> indices;
  for (const ir::Expr& i : op->indices) {
    indices.push_back(VisitExpr(i));
    CheckIntegral(i, "BufferStore index");
    if (i.dtype().lanes() != 1 && i.dtype().lanes() != op->value.dtype().lanes()) {
      Fail(absl::InvalidArgumentError(
          absl::StrCat("BufferStore ", op->buffer->name, ": index lanes differ from the value's")));
    }
  }
  TensorInfo* t = FindTensor(op->buffer, "BufferStore");
  if (t == nullptr || !CheckType(op->value.dtype())) return PlaceholderStmt();
  return MakeTensorStoreCode(arena_, op->buffer->dtype, t->slot, std::move(indices), value,
                             op->buffer->name);
}

const StmtCode* CodeBuilder::VisitStmt_(const ir::AllocateNode* op) {
  std::vector<const ExprCode*> extents;
  for (const ir::Expr& e : op->extents) {
    extents.push_back(VisitExpr(e));
    CheckIntegral(e, "allocation extent");
  }
  // A vector element type allocates its lanes as scalar elements.
  if (op->dtype.is_vector())
    extents.push_back(MakeConstCode(arena_, IntLane(op->dtype.lanes()), 1));
  MemScope scope = MemScope::kGlobal;
  const std::string& name = op->buffer_var.name();
  if (!CheckType(op->dtype) || !ParseScope(op->scope, name, &scope)) return PlaceholderStmt();
  AllocSpec spec{name, op->dtype.bytes(), scope, scope == MemScope::kShared ? num_shared_++ : -1};
  const int slot = BindBufferVar(op->buffer_var, op->dtype.element_of());
  const StmtCode* body = VisitStmt(op->body);
  UnbindBufferVar(op->buffer_var);
  return arena_.New<AllocateCode>(slot, std::move(spec), std::move(extents), body);
}

const StmtCode* CodeBuilder::VisitStmt_(const ir::BufferRealizeNode* op) {
  const ir::Buffer& b = op->buffer;
  std::vector<RealizeCode::Bound> bounds;
  for (const ir::Range& r : op->bounds) {
    bounds.push_back({VisitExpr(r.min), VisitExpr(r.extent)});
    CheckIntegral(r.min, "realize min");
    CheckIntegral(r.extent, "realize extent");
  }
  MemScope scope = MemScope::kGlobal;
  if (!CheckType(b->dtype) || !ParseScope(b->scope, b->name, &scope)) return PlaceholderStmt();
  if (b->dtype.is_vector()) {
    Fail(absl::UnimplementedError("realize of " + b->name + " with a vector element type"));
    return PlaceholderStmt();
  }
  AllocSpec spec{b->name, b->dtype.bytes(), scope, scope == MemScope::kShared ? num_shared_++ : -1};
  auto it = tensors_.find(b.get());
  if (it != tensors_.end() && it->second.is_param) {
    const int tensor_slot = it->second.slot;
    const int buffer_slot = buffer_vars_[b->data.get()].slot;
    return arena_.New<RealizeCode>(tensor_slot, buffer_slot, /*is_param=*/true, std::move(spec),
                                   std::move(bounds), VisitStmt(op->body));
  }
  if (it == tensors_.end()) {
    const int slot = static_cast<int>(tensors_.size());
    it = tensors_.emplace(b.get(), TensorInfo{slot, false, 0}).first;
  }
  const int tensor_slot = it->second.slot;
  ++it->second.bound;
  const int buffer_slot = BindBufferVar(b->data, b->dtype);
  const StmtCode* body = VisitStmt(op->body);
  UnbindBufferVar(b->data);
  --tensors_[b.get()].bound;
  return arena_.New<RealizeCode>(tensor_slot, buffer_slot, /*is_param=*/false, std::move(spec),
                                 std::move(bounds), body);
}

}  // namespace tunefarm::interp
