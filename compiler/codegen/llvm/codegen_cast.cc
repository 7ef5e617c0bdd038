// CodeGenLLVM, casts between all IR types with the interpreter's semantics: integer casts wrap,
// float to integer truncates toward zero and saturates (NaN becomes 0), anything to bool is != 0.
#include <optional>

#include "compiler/codegen/llvm/codegen_llvm.h"

namespace tunefarm::codegen {
namespace {

// A float constant, or one broadcast to lanes.
std::optional<double> FloatConstant(const ir::Expr& e) {
  if (const auto* b = e.As<ir::BroadcastNode>()) return FloatConstant(b->value);
  if (const auto* f = e.As<ir::FloatImmNode>()) return f->value;
  return std::nullopt;
}

// Whether `e` is min(max(x, lo), hi) or max(min(x, hi), lo) with constant bounds inside int32's
// range (a NaN passes such a clamp).
bool ClampedToInt32(const ir::Expr& e) {
  std::optional<double> lo, hi;
  if (const auto* mn = e.As<ir::MinNode>()) {
    const auto* mx = mn->a.As<ir::MaxNode>();
    if (mx == nullptr) return false;
    lo = FloatConstant(mx->b);
    hi = FloatConstant(mn->b);
  } else if (const auto* mx = e.As<ir::MaxNode>()) {
    const auto* mn = mx->a.As<ir::MinNode>();
    if (mn == nullptr) return false;
    lo = FloatConstant(mx->b);
    hi = FloatConstant(mn->b);
  }
  return lo && hi && *lo >= -2147483648.0 && *hi <= 2147483520.0;
}

}  // namespace

llvm::Value* CodeGenLLVM::VisitExpr_(const ir::CastNode* op) {
  const ir::DataType from = op->value.dtype(), to = op->dtype;
  // A float clamped into int32's range (a quantize's result) converts in int32, which vectorizes:
  // the general path's 64-bit saturating conversions cost instructions per lane.
  if (from.is_float() && (to.is_int() || to.is_uint()) && to.bits() <= 32 &&
      ClampedToInt32(op->value)) {
    llvm::Type* i32 = TypeOf(ir::DataType::Int(32, from.lanes()));
    llvm::Value* v = VisitExpr(op->value);
    // fptosi is exact inside the clamp; NaN, the one value it lets through, becomes 0 first.
    // (LLVM's x86 backend expands the saturating fptosi.sat lane by lane.)
    llvm::Value* nan = builder_->CreateFCmpUNO(v, v);
    v = builder_->CreateSelect(nan, llvm::Constant::getNullValue(v->getType()), v);
    llvm::Value* r = builder_->CreateFPToSI(v, i32);
    return builder_->CreateIntCast(r, TypeOf(to), true);
  }
  return Cast(from, to, VisitExpr(op->value));
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
