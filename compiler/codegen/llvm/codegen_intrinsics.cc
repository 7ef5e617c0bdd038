// CodeGenLLVM, calls: math functions as LLVM intrinsics (vector forms included, so the backend
// picks vector code or per-lane library calls), likely, and the lazy if_then_else.
#include <llvm/IR/IntrinsicsAArch64.h>
#include <llvm/IR/IntrinsicsX86.h>
#include <llvm/MC/MCSubtargetInfo.h>
#include <llvm/TargetParser/Triple.h>

#include "absl/strings/str_cat.h"
#include "compiler/codegen/llvm/codegen_llvm.h"

namespace tunefarm::codegen {

llvm::Value* CodeGenLLVM::VisitExpr_(const ir::CallNode* op) {
  switch (op->op) {
    case ir::Intrinsic::kLikely:
      return VisitExpr(op->args[0]);  // the hint becomes branch weights at the IfThenElse
    case ir::Intrinsic::kIfThenElse:
      return EmitIfThenElse(op);
    case ir::Intrinsic::kSyncThreads:
      return Unsupported(op, "sync_threads() is a GPU barrier; a CPU target has no thread blocks");
    case ir::Intrinsic::kDot4Add:
      return EmitDot4Add(op);
    default:
      return EmitMath(op);
  }
}

// The target's own instruction where it has one of the width asked for (x86 VNNI's vpdpbusd:
// unsigned by signed bytes; AArch64's sdot/udot: bytes of one signedness), else the widened
// products summed in groups of four, which any target runs.
llvm::Value* CodeGenLLVM::EmitDot4Add(const ir::CallNode* op) {
  auto* b = builder_.get();
  llvm::Value* acc = VisitExpr(op->args[0]);
  llvm::Value* x = VisitExpr(op->args[1]);
  llvm::Value* y = VisitExpr(op->args[2]);
  ir::DataType xt = op->args[1].dtype(), yt = op->args[2].dtype();
  const unsigned n = static_cast<unsigned>(op->dtype.lanes());
  auto* i32s = llvm::FixedVectorType::get(b->getInt32Ty(), n);
  auto* bytes = llvm::FixedVectorType::get(b->getInt8Ty(), 4 * n);
  if (xt.lanes() == 4 && n > 1) {  // one group of four shared by every sum: splat it as an i32
    llvm::Value* word = b->CreateBitCast(x, b->getInt32Ty());
    x = b->CreateBitCast(b->CreateVectorSplat(n, word), bytes);
    xt = xt.with_lanes(static_cast<int>(4 * n));
  }
  if (n > 1) {
    const llvm::Triple triple(module_.getTargetTriple());
    const llvm::MCSubtargetInfo* sti = tm_.getMCSubtargetInfo();
    auto has = [&](const char* f) { return sti->checkFeatures(absl::StrCat("+", f)); };
    if (triple.getArch() == llvm::Triple::x86_64 && xt.is_uint() != yt.is_uint()) {
      if (yt.is_uint()) std::swap(x, y);  // vpdpbusd's first byte operand is the unsigned one
      const bool vnni = has("avx512vnni"), narrow = (vnni && has("avx512vl")) || has("avxvnni");
      llvm::Intrinsic::ID id = llvm::Intrinsic::not_intrinsic;
      if (n == 16 && vnni) id = llvm::Intrinsic::x86_avx512_vpdpbusd_512;
      if (n == 8 && narrow) id = llvm::Intrinsic::x86_avx512_vpdpbusd_256;
      if (n == 4 && narrow) id = llvm::Intrinsic::x86_avx512_vpdpbusd_128;
      if (id != llvm::Intrinsic::not_intrinsic) {
        return b->CreateIntrinsic(id, {},
                                  {acc, b->CreateBitCast(x, i32s), b->CreateBitCast(y, i32s)});
      }
    }
    if (triple.isAArch64() && xt.is_uint() == yt.is_uint() && (n == 4 || n == 2) &&
        has("dotprod")) {
      const llvm::Intrinsic::ID id =
          xt.is_uint() ? llvm::Intrinsic::aarch64_neon_udot : llvm::Intrinsic::aarch64_neon_sdot;
      return b->CreateIntrinsic(id, {i32s, bytes}, {acc, x, y});
    }
  }
  auto widen = [&](llvm::Value* v, ir::DataType t) {
    auto* wide = llvm::FixedVectorType::get(b->getInt32Ty(), 4 * n);
    return t.is_uint() ? b->CreateZExt(v, wide) : b->CreateSExt(v, wide);
  };
  llvm::Value* products = b->CreateMul(widen(x, xt), widen(y, yt));
  llvm::Value* sum = acc;
  for (unsigned k = 0; k < 4; ++k) {
    std::vector<int> lanes;
    for (unsigned i = 0; i < n; ++i) lanes.push_back(static_cast<int>(4 * i + k));
    llvm::Value* part = b->CreateShuffleVector(products, lanes);
    if (n == 1) part = b->CreateExtractElement(part, uint64_t{0});
    sum = b->CreateAdd(sum, part);
  }
  return sum;
}

llvm::Value* CodeGenLLVM::EmitMath(const ir::CallNode* op) {
  llvm::Value* a = VisitExpr(op->args[0]);
  auto unary = [&](llvm::Intrinsic::ID id) { return builder_->CreateUnaryIntrinsic(id, a); };
  switch (op->op) {
    case ir::Intrinsic::kExp:
      return EmitExp(a);
    case ir::Intrinsic::kLog:
      return unary(llvm::Intrinsic::log);
    case ir::Intrinsic::kSqrt:
      return unary(llvm::Intrinsic::sqrt);
    case ir::Intrinsic::kTanh:
      return unary(llvm::Intrinsic::tanh);
    case ir::Intrinsic::kFabs:
      return unary(llvm::Intrinsic::fabs);
    case ir::Intrinsic::kFloor:
      return unary(llvm::Intrinsic::floor);
    case ir::Intrinsic::kCeil:
      return unary(llvm::Intrinsic::ceil);
    case ir::Intrinsic::kRound:
      return unary(llvm::Intrinsic::roundeven);
    case ir::Intrinsic::kSin:
      return unary(llvm::Intrinsic::sin);
    case ir::Intrinsic::kCos:
      return unary(llvm::Intrinsic::cos);
    case ir::Intrinsic::kErf:
      if (auto* v = llvm::dyn_cast<llvm::FixedVectorType>(a->getType());
          v != nullptr && v->getElementType()->isFloatTy()) {
        return EmitErf(a);
      }
      [[fallthrough]];
    case ir::Intrinsic::kTan:
    case ir::Intrinsic::kSinh:
    case ir::Intrinsic::kCosh:
    case ir::Intrinsic::kAsin:
    case ir::Intrinsic::kAcos:
    case ir::Intrinsic::kAtan:
    case ir::Intrinsic::kAsinh:
    case ir::Intrinsic::kAcosh:
    case ir::Intrinsic::kAtanh: {
      // The C library's name: "erf", and "erff" for float.
      std::string name = ir::IntrinsicName(op->op);
      if (a->getType()->getScalarType()->isFloatTy()) name += "f";
      return EmitLibmCall(a, name.c_str());
    }
    case ir::Intrinsic::kPow:
      return builder_->CreateBinaryIntrinsic(llvm::Intrinsic::pow, a, VisitExpr(op->args[1]));
    case ir::Intrinsic::kSigmoid: {
      llvm::Constant* one = llvm::ConstantFP::get(a->getType(), 1.0);
      llvm::Value* e = EmitExp(builder_->CreateFNeg(a));
      return builder_->CreateFDiv(one, builder_->CreateFAdd(one, e));
    }
    default:
      return Unsupported(op, absl::StrCat("intrinsic ", ir::IntrinsicName(op->op)));
  }
}

// e^x. A float vector gets its own code: the backend would call expf once per lane (a sigmoid
// epilogue cost more than the convolution under it). x = n ln2 + r with |r| <= ln2 / 2, e^r by
// its Taylor series to r^7 (truncation under 2e-8, below float's half ulp), times 2^n built in
// the exponent bits, in two halves so that n may reach past the float exponent's range and
// overflow to inf or underflow through the subnormals as expf does. NaN stays NaN.
llvm::Value* CodeGenLLVM::EmitExp(llvm::Value* x) {
  auto* vector = llvm::dyn_cast<llvm::FixedVectorType>(x->getType());
  if (vector == nullptr || !vector->getElementType()->isFloatTy()) {
    return builder_->CreateUnaryIntrinsic(llvm::Intrinsic::exp, x);
  }
  auto* b = builder_.get();
  llvm::Type* t = x->getType();
  auto c = [&](double v) { return llvm::ConstantFP::get(t, v); };
  auto fma = [&](llvm::Value* p, llvm::Value* q, llvm::Value* r) {
    return b->CreateIntrinsic(llvm::Intrinsic::fma, {t}, {p, q, r});
  };
  // Past these e^x is inf or 0 in float whatever n is; clamping keeps n's halves in range.
  llvm::Value* clamped = b->CreateBinaryIntrinsic(
      llvm::Intrinsic::minnum, b->CreateBinaryIntrinsic(llvm::Intrinsic::maxnum, x, c(-150.0)),
      c(150.0));
  llvm::Value* n = b->CreateUnaryIntrinsic(llvm::Intrinsic::roundeven,
                                           b->CreateFMul(clamped, c(1.4426950408889634)));
  // ln2 in two parts: n * ln2_hi is exact for |n| < 2^8.
  llvm::Value* r = fma(n, c(-0.693145751953125), clamped);
  r = fma(n, c(-1.428606820309417232e-06), r);
  llvm::Value* p = c(1.0 / 5040);
  for (double coefficient : {1.0 / 720, 1.0 / 120, 1.0 / 24, 1.0 / 6, 0.5, 1.0, 1.0}) {
    p = fma(p, r, c(coefficient));
  }
  llvm::Type* it = llvm::VectorType::get(b->getInt32Ty(), vector->getElementCount());
  llvm::Value* ni = b->CreateFPToSI(n, it);
  llvm::Value* half = b->CreateAShr(ni, llvm::ConstantInt::get(it, 1));
  llvm::Value* rest = b->CreateSub(ni, half);
  auto power_of_two = [&](llvm::Value* e) {
    llvm::Value* bits = b->CreateShl(b->CreateAdd(e, llvm::ConstantInt::get(it, 127)),
                                     llvm::ConstantInt::get(it, 23));
    return b->CreateBitCast(bits, t);
  };
  llvm::Value* result = b->CreateFMul(b->CreateFMul(p, power_of_two(half)), power_of_two(rest));
  return b->CreateSelect(b->CreateFCmpUNO(x, x), x, result);
}

// erf(x) for a float vector, which the C library would compute lane by lane (a GELU epilogue cost
// more than the matmul under it). |x| < 1: x * P(x^2); 1 <= |x| < 3.92: 1 - e^(-x^2) * Q(|x|),
// Q fitting erfc(a) e^(a^2) on [1, 3.92]; past that erf is 1 in float. Both polynomials are least
// squares fits on Chebyshev nodes (relative error 1.4e-9 and 3.3e-8), so the float result is
// within 2 ulps of erf. The sign is x's; NaN stays NaN.
llvm::Value* CodeGenLLVM::EmitErf(llvm::Value* x) {
  auto* b = builder_.get();
  llvm::Type* t = x->getType();
  auto c = [&](double v) { return llvm::ConstantFP::get(t, v); };
  auto horner = [&](llvm::Value* at, std::initializer_list<double> from_highest) {
    llvm::Value* p = nullptr;
    for (double coefficient : from_highest) {
      p = p == nullptr ? static_cast<llvm::Value*>(c(coefficient))
                       : b->CreateIntrinsic(llvm::Intrinsic::fma, {t}, {p, at, c(coefficient)});
    }
    return p;
  };
  llvm::Value* a = b->CreateUnaryIntrinsic(llvm::Intrinsic::fabs, x);
  llvm::Value* z = b->CreateFMul(a, a);
  llvm::Value* near =
      b->CreateFMul(a, horner(z, {7.882500416867448e-05, -0.0008018859006119822,
                                  0.005189312811682685, -0.026854329537860946, 0.1128359749155195,
                                  -0.3761262690789202, 1.1283791658833298}));
  llvm::Value* u = b->CreateFMul(b->CreateFSub(a, c(2.46)), c(1 / 1.46));
  llvm::Value* q =
      horner(u, {-3.0327188490278198e-05, 8.080146192447189e-05, -0.00012655850713639912,
                 0.0003292111100904814, -0.0009171539600156053, 0.002228560036382209,
                 -0.005213330637545154, 0.011895485443872792, -0.026168137115124012,
                 0.055256449023772844, -0.11151688312597713, 0.21382067195625845});
  llvm::Value* far = b->CreateFSub(c(1.0), b->CreateFMul(EmitExp(b->CreateFNeg(z)), q));
  llvm::Value* magnitude =
      b->CreateSelect(b->CreateFCmpOLT(a, c(1.0)), near,
                      b->CreateSelect(b->CreateFCmpOLT(a, c(3.92)), far, c(1.0)));
  llvm::Value* result = b->CreateBinaryIntrinsic(llvm::Intrinsic::copysign, magnitude, x);
  return b->CreateSelect(b->CreateFCmpUNO(x, x), x, result);
}

// LLVM has no intrinsic for some math functions: call the C library's, lane by lane for a
// vector (the JIT resolves it from the process, a shared library from libm).
llvm::Value* CodeGenLLVM::EmitLibmCall(llvm::Value* a, const char* name) {
  llvm::Type* scalar = a->getType()->getScalarType();
  llvm::FunctionCallee fn =
      module_.getOrInsertFunction(name, llvm::FunctionType::get(scalar, {scalar}, false));
  if (auto* function = llvm::dyn_cast<llvm::Function>(fn.getCallee())) function->setDoesNotThrow();
  auto* vector = llvm::dyn_cast<llvm::FixedVectorType>(a->getType());
  if (vector == nullptr) return builder_->CreateCall(fn, {a});
  llvm::Value* out = llvm::PoisonValue::get(vector);
  for (unsigned lane = 0; lane < vector->getNumElements(); ++lane) {
    llvm::Value* x = builder_->CreateExtractElement(a, lane);
    out = builder_->CreateInsertElement(out, builder_->CreateCall(fn, {x}), lane);
  }
  return out;
}

// Only the chosen operand may run: a scalar condition branches; a vector condition evaluates
// each side under a mask of its lanes, so loads in switched-off lanes do not happen.
llvm::Value* CodeGenLLVM::EmitIfThenElse(const ir::CallNode* op) {
  const ir::Expr& cond = op->args[0];
  llvm::Value* c = VisitExpr(cond);
  if (cond.dtype().is_vector()) {
    if (cond.dtype().lanes() != op->dtype.lanes()) {
      return Unsupported(op, "if_then_else with a vector condition and values of other lanes");
    }
    llvm::Value* outer = mask_;
    mask_ = outer ? builder_->CreateAnd(outer, c) : c;
    llvm::Value* t = VisitExpr(op->args[1]);
    llvm::Value* not_c = builder_->CreateNot(c);
    mask_ = outer ? builder_->CreateAnd(outer, not_c) : not_c;
    llvm::Value* f = VisitExpr(op->args[2]);
    mask_ = outer;
    return builder_->CreateSelect(c, t, f);
  }
  llvm::BasicBlock* then_bb = NewBlock("ite_then");
  llvm::BasicBlock* else_bb = NewBlock("ite_else");
  llvm::BasicBlock* end_bb = NewBlock("ite_end");
  builder_->CreateCondBr(c, then_bb, else_bb);
  builder_->SetInsertPoint(then_bb);
  llvm::Value* t = VisitExpr(op->args[1]);
  llvm::BasicBlock* then_end = builder_->GetInsertBlock();
  builder_->CreateBr(end_bb);
  builder_->SetInsertPoint(else_bb);
  llvm::Value* f = VisitExpr(op->args[2]);
  llvm::BasicBlock* else_end = builder_->GetInsertBlock();
  builder_->CreateBr(end_bb);
  builder_->SetInsertPoint(end_bb);
  llvm::PHINode* phi = builder_->CreatePHI(t->getType(), 2);
  phi->addIncoming(t, then_end);
  phi->addIncoming(f, else_end);
  return phi;
}

}  // namespace tunefarm::codegen
