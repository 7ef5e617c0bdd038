// CodeBuilder, expressions: one compiled node per IR node, specialized by type.
#include <utility>

#include "absl/strings/str_cat.h"
#include "compiler/interp/arith_code.h"
#include "compiler/interp/code_builder.h"
#include "compiler/interp/expr_code.h"
#include "compiler/interp/memory_code.h"
#include "compiler/ir/printer.h"

namespace tunefarm::interp {

const ExprCode* CodeBuilder::VisitExpr(const ir::Expr& e) {
  visiting_ = &e;
  return ExprFunctor::VisitExpr(e);
}

const ExprCode* CodeBuilder::VisitExpr_(const ir::IntImmNode* op) {
  if (!CheckType(op->dtype)) return Placeholder(1);
  const int shift = ShiftOf(op->dtype);
  const auto bits = static_cast<uint64_t>(op->value);
  const int64_t v = op->dtype.is_int() ? WrapSigned(bits, shift) : WrapUnsigned(bits, shift);
  return MakeConstCode(arena_, IntLane(v), 1);
}

const ExprCode* CodeBuilder::VisitExpr_(const ir::FloatImmNode* op) {
  if (!CheckType(op->dtype)) return Placeholder(1);
  const double v = op->dtype.bits() == 32 ? static_cast<float>(op->value) : op->value;
  return MakeConstCode(arena_, FloatLane(v), 1);
}

const ExprCode* CodeBuilder::VisitExpr_(const ir::StringImmNode* op) {
  Fail(absl::InvalidArgumentError(
      absl::StrCat("string \"", op->value, "\" used as a value (only attributes take strings)")));
  return Placeholder(1);
}

const ExprCode* CodeBuilder::VisitExpr_(const ir::VarNode* op) {
  const int lanes = op->dtype.lanes();
  if (op->dtype.is_handle()) {
    Fail(absl::InvalidArgumentError(
        absl::StrCat("buffer variable ", op->name, " used as a value outside Load/Store")));
    return Placeholder(lanes);
  }
  auto it = vars_.find(op);
  if (it == vars_.end() || it->second.bound == 0) {
    Fail(absl::InvalidArgumentError(absl::StrCat(
        "variable ", op->name, " is not bound here: it is free, or used outside its scope")));
    return Placeholder(lanes);
  }
  return MakeVarCode(arena_, it->second.slot, lanes);
}

const ExprCode* CodeBuilder::BuildBinary(ir::ExprKind kind, const ir::Expr& a, const ir::Expr& b) {
  const ir::Expr self = *visiting_;
  const ExprCode* ca = VisitExpr(a);
  const ExprCode* cb = VisitExpr(b);
  if (!CheckType(a.dtype())) return Placeholder(self.dtype().lanes());
  return MakeBinaryCode(arena_, kind, a.dtype(), ca, cb, self);
}

#define TF_BUILD_BINARY(Name)                                         \
  const ExprCode* CodeBuilder::VisitExpr_(const ir::Name##Node* op) { \
    return BuildBinary(ir::ExprKind::k##Name, op->a, op->b);          \
  }
TF_IR_BINARY_NODES(TF_BUILD_BINARY)
#undef TF_BUILD_BINARY

const ExprCode* CodeBuilder::VisitExpr_(const ir::NotNode* op) {
  return MakeNotCode(arena_, VisitExpr(op->a));
}

const ExprCode* CodeBuilder::VisitExpr_(const ir::SelectNode* op) {
  const ExprCode* c = VisitExpr(op->condition);
  const ExprCode* t = VisitExpr(op->true_value);
  const ExprCode* e = VisitExpr(op->false_value);
  return MakeSelectCode(arena_, c, t, e);
}

const ExprCode* CodeBuilder::VisitExpr_(const ir::CastNode* op) {
  const ExprCode* v = VisitExpr(op->value);
  if (!CheckType(op->value.dtype()) || !CheckType(op->dtype)) return Placeholder(op->dtype.lanes());
  return MakeCastCode(arena_, op->value.dtype(), op->dtype, v);
}

const ExprCode* CodeBuilder::VisitExpr_(const ir::RampNode* op) {
  const ExprCode* base = VisitExpr(op->base);
  const ExprCode* stride = VisitExpr(op->stride);
  if (!CheckType(op->dtype)) return Placeholder(op->lanes);
  return MakeRampCode(arena_, op->dtype, base, stride);
}

const ExprCode* CodeBuilder::VisitExpr_(const ir::BroadcastNode* op) {
  return MakeBroadcastCode(arena_, VisitExpr(op->value), op->lanes);
}

const ExprCode* CodeBuilder::VisitExpr_(const ir::LetNode* op) {
  const ExprCode* value = VisitExpr(op->value);
  if (!CheckType(op->var.dtype())) return Placeholder(op->dtype.lanes());
  const int slot = BindVar(op->var);
  const ExprCode* body = VisitExpr(op->body);
  UnbindVar(op->var);
  return MakeLetCode(arena_, slot, value, body);
}

const ExprCode* CodeBuilder::VisitExpr_(const ir::CallNode* op) {
  const int lanes = op->dtype.lanes();
  switch (op->op) {
    case ir::Intrinsic::kLikely:
      return VisitExpr(op->args[0]);
    case ir::Intrinsic::kIfThenElse: {
      const ExprCode* c = VisitExpr(op->args[0]);
      const ExprCode* t = VisitExpr(op->args[1]);
      const ExprCode* e = VisitExpr(op->args[2]);
      return MakeIfThenElseCode(arena_, c, t, e);
    }
    case ir::Intrinsic::kSyncThreads:
      Fail(absl::InvalidArgumentError("sync_threads() used as a value; it may only be Evaluated"));
      return Placeholder(lanes);
    case ir::Intrinsic::kDot4Add: {
      const ExprCode* acc = VisitExpr(op->args[0]);
      const ExprCode* a = VisitExpr(op->args[1]);
      const ExprCode* b = VisitExpr(op->args[2]);
      return MakeDot4AddCode(arena_, acc, a, b);
    }
    default: {
      const ExprCode* a = VisitExpr(op->args[0]);
      const ExprCode* b = op->args.size() > 1 ? VisitExpr(op->args[1]) : nullptr;
      if (!CheckType(op->dtype)) return Placeholder(lanes);
      return MakeMathCode(arena_, op->op, op->dtype, a, b);
    }
  }
}

const ExprCode* CodeBuilder::VisitExpr_(const ir::BufferLoadNode* op) {
  const ir::Expr self = *visiting_;
  std::vector<const ExprCode*> indices;
  for (const ir::Expr& i : op->indices) {
    indices.push_back(VisitExpr(i));
    CheckIntegral(i, "BufferLoad index");
    if (i.dtype().is_vector()) {
      Fail(absl::UnimplementedError(
          absl::StrCat("vector index in ", ir::ToString(self), ": BufferLoad is scalar")));
    }
  }
  TensorInfo* t = FindTensor(op->buffer, "BufferLoad");
  if (t == nullptr || !CheckType(op->dtype)) return Placeholder(1);
  return MakeTensorLoadCode(arena_, op->buffer->dtype, t->slot, std::move(indices),
                            op->buffer->name);
}

const ExprCode* CodeBuilder::VisitExpr_(const ir::LoadNode* op) {
  const ExprCode* index = VisitExpr(op->index);
  ir::DataType elem;
  const int slot = BufferVarSlot(op->buffer_var, "Load", &elem);
  if (slot < 0 || !CheckType(op->dtype) || !CheckIntegral(op->index, "Load index"))
    return Placeholder(op->dtype.lanes());
  if (!(elem == op->dtype.element_of())) {
    Fail(absl::InvalidArgumentError(absl::StrCat("Load of ", op->dtype.ToString(), " from ",
                                                 op->buffer_var.name(), ", which holds ",
                                                 elem.ToString())));
    return Placeholder(op->dtype.lanes());
  }
  return MakeLoadCode(arena_, elem, slot, index, op->buffer_var.name());
}

const ExprCode* CodeBuilder::VisitExpr_(const ir::ReduceNode* op) {
  Fail(absl::UnimplementedError(
      "Reduce in lowered IR: the interpreter runs IR after reductions are lowered to loops"));
  return Placeholder(op->dtype.lanes());
}

}  // namespace tunefarm::interp
