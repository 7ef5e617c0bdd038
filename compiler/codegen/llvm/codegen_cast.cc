// CodeGenLLVM, casts between all IR types with the interpreter's semantics: integer casts wrap,
// float to integer truncates toward zero and saturates (NaN becomes 0), anything to bool is != 0.
#include "compiler/codegen/llvm/codegen_llvm.h"

namespace tunefarm::codegen {

llvm::Value* CodeGenLLVM::VisitExpr_(const ir::CastNode* op) {
  return Cast(op->value.dtype(), op->dtype, VisitExpr(op->value));
}

llvm::Value* CodeGenLLVM::Cast(ir::DataType from, ir::DataType to, llvm::Value* v) {
  if (from == to) return v;
  llvm::Type* t = TypeOf(to);
  if (to.is_bool()) {
    if (from.is_float()) {
      return builder_->CreateFCmpUNE(v, llvm::Constant::getNullValue(v->getType()));
    }
    return builder_->CreateICmpNE(v, llvm::Constant::getNullValue(v->getType()));
  }
  if (from.is_handle() || to.is_handle()) {
    // Through a 64-bit integer: the address.
    const ir::DataType address = ir::DataType::Int(64, from.lanes());
    if (from.is_handle() && to.is_handle()) return v;
    if (from.is_handle()) return Cast(address, to, builder_->CreatePtrToInt(v, TypeOf(address)));
    return builder_->CreateIntToPtr(Cast(from, address, v), t);
  }
  if (from.is_float() && to.is_float()) return builder_->CreateFPCast(v, t);
  if (to.is_float())
    return from.is_int() ? builder_->CreateSIToFP(v, t) : builder_->CreateUIToFP(v, t);
  if (from.is_float()) return FloatToInt(from, to, v);
  return builder_->CreateIntCast(v, t, from.is_int());
}

// Into 64 bits first with the saturating conversions (fptosi is poison out of range), then wrap
// to the target width. A negative value cast to an unsigned type wraps, as in the interpreter.
llvm::Value* CodeGenLLVM::FloatToInt(ir::DataType from, ir::DataType to, llvm::Value* v) {
  llvm::Type* i64 = TypeOf(ir::DataType::Int(64, from.lanes()));
  llvm::Value* r = builder_->CreateIntrinsic(llvm::Intrinsic::fptosi_sat, {i64, v->getType()}, {v});
  if (to.is_uint()) {
    llvm::Value* u =
        builder_->CreateIntrinsic(llvm::Intrinsic::fptoui_sat, {i64, v->getType()}, {v});
    llvm::Value* negative = builder_->CreateFCmpOLT(v, llvm::Constant::getNullValue(v->getType()));
    r = builder_->CreateSelect(negative, r, u);
  }
  return builder_->CreateIntCast(r, TypeOf(to), false);
}

}  // namespace tunefarm::codegen
