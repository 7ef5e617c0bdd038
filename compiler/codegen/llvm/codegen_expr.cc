// CodeGenLLVM, expressions: constants, variables, arithmetic with the IR's integer semantics
// (wrapping, truncating and flooring division), comparisons, logic, select, ramps and lets.
#include <llvm/IR/PatternMatch.h>

#include "absl/strings/str_cat.h"
#include "compiler/codegen/llvm/codegen_llvm.h"
#include "compiler/ir/printer.h"

namespace tunefarm::codegen {
namespace {

// The constant value of a scalar or splat integer, if it is one.
const llvm::APInt* ConstantInt(llvm::Value* v) {
  const llvm::APInt* c = nullptr;
  return llvm::PatternMatch::match(v, llvm::PatternMatch::m_APInt(c)) ? c : nullptr;
}

}  // namespace

// ---- helpers shared by every family

llvm::Type* CodeGenLLVM::TypeOf(ir::DataType t) {
  llvm::Type* scalar = nullptr;
  if (t.is_handle()) return llvm::PointerType::getUnqual(ctx_);
  if (t.is_void()) return llvm::Type::getVoidTy(ctx_);
  if (t.is_float()) {
    scalar = t.bits() == 16   ? llvm::Type::getHalfTy(ctx_)
             : t.bits() == 32 ? llvm::Type::getFloatTy(ctx_)
                              : llvm::Type::getDoubleTy(ctx_);
  } else {
    scalar = llvm::Type::getIntNTy(ctx_, t.bits());
  }
  return t.is_vector() ? llvm::FixedVectorType::get(scalar, t.lanes()) : scalar;
}

llvm::Type* CodeGenLLVM::MemoryTypeOf(ir::DataType t) {
  return TypeOf(t.is_bool() ? ir::DataType::UInt(8, t.lanes()) : t);
}

void CodeGenLLVM::Fail(absl::Status status) {
  if (status_.ok()) {
    status_ = absl::Status(status.code(), absl::StrCat(func_name_, ": ", status.message()));
  }
}

llvm::Value* CodeGenLLVM::Unsupported(const ir::ExprNode* op, const std::string& what) {
  Fail(absl::UnimplementedError(what));
  llvm::Type* t = TypeOf(op->dtype);
  return t->isVoidTy() ? llvm::PoisonValue::get(builder_->getInt32Ty()) : llvm::PoisonValue::get(t);
}

llvm::BasicBlock* CodeGenLLVM::NewBlock(const char* name) {
  return llvm::BasicBlock::Create(ctx_, name, state_.fn);
}

llvm::AllocaInst* CodeGenLLVM::EntryAlloca(llvm::Type* type, llvm::Align align) {
  llvm::IRBuilder<> entry(&state_.fn->getEntryBlock(), state_.fn->getEntryBlock().begin());
  llvm::AllocaInst* a = entry.CreateAlloca(type);
  a->setAlignment(align);
  return a;
}

void CodeGenLLVM::BindVar(const ir::Var& v, llvm::Value* value) { state_.vars[v.get()] = value; }

// ---- leaves

llvm::Value* CodeGenLLVM::VisitExpr_(const ir::IntImmNode* op) {
  return llvm::ConstantInt::get(TypeOf(op->dtype), static_cast<uint64_t>(op->value),
                                op->dtype.is_int());
}

llvm::Value* CodeGenLLVM::VisitExpr_(const ir::FloatImmNode* op) {
  return llvm::ConstantFP::get(TypeOf(op->dtype), op->value);
}

llvm::Value* CodeGenLLVM::VisitExpr_(const ir::StringImmNode* op) {
  return builder_->CreateGlobalString(op->value, ".str", 0, &module_);
}

llvm::Value* CodeGenLLVM::VisitExpr_(const ir::VarNode* op) {
  auto it = state_.vars.find(op);
  if (it != state_.vars.end()) return it->second;
  return Unsupported(op, absl::StrCat("variable ", op->name, " is used where it is not defined"));
}

// ---- arithmetic

#define TF_ARITH(Name, IntOp, FloatOp)                                        \
  llvm::Value* CodeGenLLVM::VisitExpr_(const ir::Name##Node* op) {            \
    llvm::Value* a = VisitExpr(op->a);                                        \
    llvm::Value* b = VisitExpr(op->b);                                        \
    if (op->dtype.is_float()) return builder_->FloatOp(a, b);                 \
    return builder_->IntOp(a, b, "", false, in_index_ && op->dtype.is_int()); \
  }
TF_ARITH(Add, CreateAdd, CreateFAdd)
TF_ARITH(Sub, CreateSub, CreateFSub)
TF_ARITH(Mul, CreateMul, CreateFMul)
#undef TF_ARITH

// Truncating signed division or remainder. INT_MIN / -1 wraps (the interpreter's answer) instead
// of trapping; lanes switched off by a vector if_then_else divide by 1.
llvm::Value* CodeGenLLVM::SignedDiv(llvm::Value* a, llvm::Value* b, bool remainder) {
  if (const llvm::APInt* c = ConstantInt(b)) {
    if (c->isAllOnes())
      return remainder ? llvm::Constant::getNullValue(a->getType()) : builder_->CreateNeg(a);
    return remainder ? builder_->CreateSRem(a, b) : builder_->CreateSDiv(a, b);
  }
  llvm::Constant* one = llvm::ConstantInt::get(b->getType(), 1);
  llvm::Value* minus_one = builder_->CreateICmpEQ(b, llvm::Constant::getAllOnesValue(b->getType()));
  llvm::Value* safe = builder_->CreateSelect(minus_one, one, b);
  if (mask_ != nullptr && b->getType()->isVectorTy() && mask_->getType() == minus_one->getType()) {
    safe = builder_->CreateSelect(mask_, safe, one);
  }
  if (remainder) {
    return builder_->CreateSelect(minus_one, llvm::Constant::getNullValue(a->getType()),
                                  builder_->CreateSRem(a, safe));
  }
  return builder_->CreateSelect(minus_one, builder_->CreateNeg(a), builder_->CreateSDiv(a, safe));
}

llvm::Value* CodeGenLLVM::VisitExpr_(const ir::DivNode* op) {
  llvm::Value* a = VisitExpr(op->a);
  llvm::Value* b = VisitExpr(op->b);
  if (op->dtype.is_float()) return builder_->CreateFDiv(a, b);
  if (!op->dtype.is_int()) return builder_->CreateUDiv(a, b);
  return SignedDiv(a, b, false);
}

llvm::Value* CodeGenLLVM::VisitExpr_(const ir::ModNode* op) {
  llvm::Value* a = VisitExpr(op->a);
  llvm::Value* b = VisitExpr(op->b);
  if (op->dtype.is_float()) return builder_->CreateFRem(a, b);  // fmod, as the interpreter
  if (!op->dtype.is_int()) return builder_->CreateURem(a, b);
  return SignedDiv(a, b, true);
}

// Rounds toward negative infinity; the remainder takes the sign of the divisor. A power of two
// divisor is a shift or a mask; otherwise the truncated result is corrected where the signs of
// remainder and divisor differ.
llvm::Value* CodeGenLLVM::FloorDivMod(ir::DataType t, llvm::Value* a, llvm::Value* b, bool mod) {
  if (t.is_float()) {
    // a - q*b cancels: fused into an FMA it would round differently from the IR's two steps.
    llvm::IRBuilderBase::FastMathFlagGuard exact(*builder_);
    builder_->clearFastMathFlags();
    llvm::Value* q =
        builder_->CreateUnaryIntrinsic(llvm::Intrinsic::floor, builder_->CreateFDiv(a, b));
    return mod ? builder_->CreateFSub(a, builder_->CreateFMul(q, b)) : q;
  }
  if (!t.is_int()) return mod ? builder_->CreateURem(a, b) : builder_->CreateUDiv(a, b);
  if (const llvm::APInt* c = ConstantInt(b); c && c->isStrictlyPositive() && c->isPowerOf2()) {
    if (mod) return builder_->CreateAnd(a, llvm::ConstantInt::get(a->getType(), *c - 1));
    return builder_->CreateAShr(a, llvm::ConstantInt::get(a->getType(), c->logBase2()));
  }
  llvm::Value* q = SignedDiv(a, b, false);
  llvm::Value* r = SignedDiv(a, b, true);
  llvm::Constant* zero = llvm::Constant::getNullValue(a->getType());
  llvm::Value* signs_differ = builder_->CreateICmpSLT(builder_->CreateXor(r, b), zero);
  llvm::Value* adjust = builder_->CreateAnd(builder_->CreateICmpNE(r, zero), signs_differ);
  if (mod) return builder_->CreateAdd(r, builder_->CreateSelect(adjust, b, zero));
  return builder_->CreateSub(q, builder_->CreateZExt(adjust, a->getType()));
}

llvm::Value* CodeGenLLVM::VisitExpr_(const ir::FloorDivNode* op) {
  llvm::Value* a = VisitExpr(op->a);
  return FloorDivMod(op->dtype, a, VisitExpr(op->b), false);
}

llvm::Value* CodeGenLLVM::VisitExpr_(const ir::FloorModNode* op) {
  llvm::Value* a = VisitExpr(op->a);
  return FloorDivMod(op->dtype, a, VisitExpr(op->b), true);
}

// Min/max as the interpreter computes them: min(a, b) = b < a ? b : a, so a NaN in b yields a.
llvm::Value* CodeGenLLVM::VisitExpr_(const ir::MinNode* op) {
  llvm::Value* a = VisitExpr(op->a);
  llvm::Value* b = VisitExpr(op->b);
  return builder_->CreateSelect(Compare(ir::ExprKind::kLT, op->dtype, b, a), b, a);
}

llvm::Value* CodeGenLLVM::VisitExpr_(const ir::MaxNode* op) {
  llvm::Value* a = VisitExpr(op->a);
  llvm::Value* b = VisitExpr(op->b);
  return builder_->CreateSelect(Compare(ir::ExprKind::kLT, op->dtype, a, b), b, a);
}

// ---- comparisons and logic

llvm::Value* CodeGenLLVM::Compare(ir::ExprKind kind, ir::DataType t, llvm::Value* a,
                                  llvm::Value* b) {
  using P = llvm::CmpInst::Predicate;
  const bool f = t.is_float(), s = t.is_int();
  P p = P::BAD_ICMP_PREDICATE;
  switch (kind) {
    case ir::ExprKind::kEQ:
      p = f ? P::FCMP_OEQ : P::ICMP_EQ;
      break;
    case ir::ExprKind::kNE:
      p = f ? P::FCMP_UNE : P::ICMP_NE;  // NaN != x holds, as in C
      break;
    case ir::ExprKind::kLT:
      p = f ? P::FCMP_OLT : s ? P::ICMP_SLT : P::ICMP_ULT;
      break;
    case ir::ExprKind::kLE:
      p = f ? P::FCMP_OLE : s ? P::ICMP_SLE : P::ICMP_ULE;
      break;
    case ir::ExprKind::kGT:
      p = f ? P::FCMP_OGT : s ? P::ICMP_SGT : P::ICMP_UGT;
      break;
    case ir::ExprKind::kGE:
      p = f ? P::FCMP_OGE : s ? P::ICMP_SGE : P::ICMP_UGE;
      break;
    default:
      TF_UNREACHABLE() << "not a comparison";
      return nullptr;
  }
  return f ? builder_->CreateFCmp(p, a, b) : builder_->CreateICmp(p, a, b);
}

#define TF_COMPARE(Name)                                                       \
  llvm::Value* CodeGenLLVM::VisitExpr_(const ir::Name##Node* op) {             \
    llvm::Value* a = VisitExpr(op->a);                                         \
    return Compare(ir::ExprKind::k##Name, op->a.dtype(), a, VisitExpr(op->b)); \
  }
TF_COMPARE(EQ)
TF_COMPARE(NE)
TF_COMPARE(LT)
TF_COMPARE(LE)
TF_COMPARE(GT)
TF_COMPARE(GE)
#undef TF_COMPARE

llvm::Value* CodeGenLLVM::VisitExpr_(const ir::AndNode* op) {
  llvm::Value* a = VisitExpr(op->a);
  return builder_->CreateAnd(a, VisitExpr(op->b));
}

llvm::Value* CodeGenLLVM::VisitExpr_(const ir::OrNode* op) {
  llvm::Value* a = VisitExpr(op->a);
  return builder_->CreateOr(a, VisitExpr(op->b));
}

llvm::Value* CodeGenLLVM::VisitExpr_(const ir::NotNode* op) {
  return builder_->CreateNot(VisitExpr(op->a));
}

// Both operands are evaluated (Select is eager); a scalar condition picks whole vectors.
llvm::Value* CodeGenLLVM::VisitExpr_(const ir::SelectNode* op) {
  llvm::Value* c = VisitExpr(op->condition);
  llvm::Value* t = VisitExpr(op->true_value);
  return builder_->CreateSelect(c, t, VisitExpr(op->false_value));
}

// ---- vectors and lets

llvm::Value* CodeGenLLVM::VisitExpr_(const ir::RampNode* op) {
  llvm::Value* base = VisitExpr(op->base);
  llvm::Value* stride = VisitExpr(op->stride);
  std::vector<llvm::Constant*> steps;
  for (int i = 0; i < op->lanes; ++i) {
    steps.push_back(op->dtype.is_float() ? llvm::ConstantFP::get(base->getType(), i)
                                         : llvm::ConstantInt::get(base->getType(), i));
  }
  llvm::Value* lanes = llvm::ConstantVector::get(steps);
  llvm::Value* b = builder_->CreateVectorSplat(op->lanes, base);
  llvm::Value* s = builder_->CreateVectorSplat(op->lanes, stride);
  const bool nsw = in_index_ && op->dtype.is_int();
  if (op->dtype.is_float()) return builder_->CreateFAdd(b, builder_->CreateFMul(s, lanes));
  return builder_->CreateAdd(b, builder_->CreateMul(s, lanes, "", false, nsw), "", false, nsw);
}

llvm::Value* CodeGenLLVM::VisitExpr_(const ir::BroadcastNode* op) {
  return builder_->CreateVectorSplat(op->lanes, VisitExpr(op->value));
}

llvm::Value* CodeGenLLVM::VisitExpr_(const ir::LetNode* op) {
  llvm::Value* value = VisitExpr(op->value);
  BindVar(op->var, value);
  std::optional<arith::Analyzer::Scope> scope;
  if (op->var.dtype().is_integral() && op->var.dtype().is_scalar()) {
    scope.emplace(analyzer_.BindScoped(op->var, op->value));
  }
  llvm::Value* body = VisitExpr(op->body);
  state_.vars.erase(op->var.get());
  return body;
}

// ---- nodes that lowering removes

llvm::Value* CodeGenLLVM::VisitExprDefault_(const ir::ExprNode* op) {
  return Unsupported(op, absl::StrCat("expression kind ", static_cast<int>(op->kind)));
}

llvm::Value* CodeGenLLVM::VisitExpr_(const ir::BufferLoadNode* op) {
  return Unsupported(op, absl::StrCat("BufferLoad of ", op->buffer->name,
                                      " survived lowering (run storage_flatten first)"));
}

llvm::Value* CodeGenLLVM::VisitExpr_(const ir::ReduceNode* op) {
  return Unsupported(op, "a Reduce expression survived lowering");
}

}  // namespace tunefarm::codegen
