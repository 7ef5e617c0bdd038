// CodeGenLLVM, memory: scalar and vector loads and stores (contiguous ramps become vector
// accesses, other vector indices gathers and scatters), alignment proven from the index's modular
// set, alias scopes that keep parameters apart, and allocations (stack or heap).
#include <algorithm>
#include <numeric>

#include "absl/strings/str_cat.h"
#include "compiler/codegen/llvm/codegen_llvm.h"

namespace tunefarm::codegen {
namespace {

// Parameters' data and our allocations start on a 64-byte boundary (runtime/core/c_abi.h).
constexpr int kBaseAlign = 64;
// Larger constant allocations, and any of a symbolic size, go to the heap: thread-pool and
// device threads may have small stacks.
constexpr int64_t kMaxStackBytes = 64 * 1024;

}  // namespace

llvm::Value* CodeGenLLVM::BufferBase(const ir::Var& buffer, const char* what) {
  auto it = state_.vars.find(buffer.get());
  if (it == state_.vars.end() || !it->second->getType()->isPointerTy()) {
    Fail(absl::InvalidArgumentError(absl::StrCat(
        what, " of ", buffer.name(), ", which is neither a parameter's data nor allocated here")));
    return nullptr;
  }
  return it->second;
}

llvm::Value* CodeGenLLVM::IndexToI64(ir::DataType t, llvm::Value* index) {
  llvm::Type* i64 = TypeOf(ir::DataType::Int(64, t.lanes()));
  return builder_->CreateIntCast(index, i64, t.is_int());
}

llvm::Align CodeGenLLVM::AlignOf(const ir::Var& buffer, const ir::Expr& index, ir::DataType elem) {
  const int64_t natural = std::max(1, elem.bytes());
  auto it = buffers_.find(buffer.get());
  const int64_t base = it == buffers_.end() ? natural : it->second.align;
  if (base <= natural || !index.dtype().is_integral() || index.dtype().is_vector()) {
    return llvm::Align(static_cast<uint64_t>(natural));
  }
  arith::ModularSet m = analyzer_.GetModularSet(index);
  const uint64_t g =
      std::gcd(static_cast<uint64_t>(std::abs(m.coeff)), static_cast<uint64_t>(std::abs(m.base)));
  // The largest power of two dividing every value of the index (g == 0: the index is 0).
  const uint64_t pow2 = g == 0 ? static_cast<uint64_t>(base) : (g & (~g + 1));
  const uint64_t bytes = std::min<uint64_t>(pow2, static_cast<uint64_t>(base)) * natural;
  return llvm::Align(std::min<uint64_t>(bytes, static_cast<uint64_t>(base)));
}

void CodeGenLLVM::AddAliasInfo(llvm::Instruction* inst, const ir::Var& buffer) {
  auto it = buffers_.find(buffer.get());
  if (it == buffers_.end() || it->second.alias_scope < 0 || alias_scopes_.size() < 2) return;
  const size_t self = static_cast<size_t>(it->second.alias_scope);
  std::vector<llvm::Metadata*> others;
  for (size_t i = 0; i < alias_scopes_.size(); ++i) {
    if (i != self) others.push_back(alias_scopes_[i]);
  }
  inst->setMetadata(llvm::LLVMContext::MD_alias_scope,
                    llvm::MDNode::get(ctx_, {alias_scopes_[self]}));
  inst->setMetadata(llvm::LLVMContext::MD_noalias, llvm::MDNode::get(ctx_, others));
}

// A scalar read inside a vector if_then_else: it happens only if some lane is live.
llvm::Value* CodeGenLLVM::LoadScalarUnderMask(llvm::Type* type, llvm::Value* ptr, llvm::Align align,
                                              const ir::Var& buffer) {
  llvm::Value* any = builder_->CreateOrReduce(mask_);
  llvm::BasicBlock* before = builder_->GetInsertBlock();
  llvm::BasicBlock* load_bb = NewBlock("masked_load");
  llvm::BasicBlock* done_bb = NewBlock("masked_load_end");
  builder_->CreateCondBr(any, load_bb, done_bb);
  builder_->SetInsertPoint(load_bb);
  llvm::LoadInst* load = builder_->CreateAlignedLoad(type, ptr, align);
  AddAliasInfo(load, buffer);
  builder_->CreateBr(done_bb);
  builder_->SetInsertPoint(done_bb);
  llvm::PHINode* phi = builder_->CreatePHI(type, 2);
  phi->addIncoming(llvm::Constant::getNullValue(type), before);
  phi->addIncoming(load, load_bb);
  return phi;
}

llvm::Value* CodeGenLLVM::VisitExpr_(const ir::LoadNode* op) {
  llvm::Value* base = BufferBase(op->buffer_var, "load");
  if (base == nullptr) return llvm::PoisonValue::get(TypeOf(op->dtype));
  const ir::DataType elem = op->dtype.element_of();
  const int lanes = op->dtype.lanes();
  llvm::Type* mem = MemoryTypeOf(elem);
  llvm::Type* mem_vec = MemoryTypeOf(op->dtype);
  llvm::Value* mask =
      mask_ != nullptr && llvm::cast<llvm::FixedVectorType>(mask_->getType())->getNumElements() ==
                              static_cast<unsigned>(lanes)
          ? mask_
          : nullptr;
  auto index = [&](const ir::Expr& e) {
    const bool saved = in_index_;
    in_index_ = true;
    llvm::Value* v = IndexToI64(e.dtype(), VisitExpr(e));
    in_index_ = saved;
    return v;
  };
  llvm::Value* loaded = nullptr;
  const auto* ramp = op->index.As<ir::RampNode>();
  const auto* bcast = op->index.As<ir::BroadcastNode>();
  if (lanes == 1 || (bcast != nullptr && mask_ == nullptr)) {
    const ir::Expr& at = lanes == 1 ? op->index : bcast->value;
    llvm::Value* ptr = builder_->CreateInBoundsGEP(mem, base, index(at));
    llvm::Align align = AlignOf(op->buffer_var, at, elem);
    if (mask_ != nullptr) {
      loaded = LoadScalarUnderMask(mem, ptr, align, op->buffer_var);
    } else {
      llvm::LoadInst* load = builder_->CreateAlignedLoad(mem, ptr, align);
      AddAliasInfo(load, op->buffer_var);
      loaded = load;
    }
    if (lanes > 1) loaded = builder_->CreateVectorSplat(lanes, loaded);
  } else if (ramp != nullptr && ir::IsConstInt(ramp->stride, 1)) {
    llvm::Value* ptr = builder_->CreateInBoundsGEP(mem, base, index(ramp->base));
    llvm::Align align = AlignOf(op->buffer_var, ramp->base, elem);
    llvm::Instruction* load = nullptr;
    if (mask != nullptr) {
      load = builder_->CreateMaskedLoad(mem_vec, ptr, align, mask,
                                        llvm::Constant::getNullValue(mem_vec));
    } else {
      load = builder_->CreateAlignedLoad(mem_vec, ptr, align);
    }
    AddAliasInfo(load, op->buffer_var);
    loaded = load;
  } else {
    llvm::Value* ptrs = builder_->CreateInBoundsGEP(mem, base, index(op->index));
    llvm::Instruction* gather = builder_->CreateMaskedGather(
        mem_vec, ptrs, llvm::Align(static_cast<uint64_t>(std::max(1, elem.bytes()))), mask,
        llvm::Constant::getNullValue(mem_vec));
    AddAliasInfo(gather, op->buffer_var);
    loaded = gather;
  }
  return elem.is_bool() ? builder_->CreateTrunc(loaded, TypeOf(op->dtype)) : loaded;
}

void CodeGenLLVM::VisitStmt_(const ir::StoreNode* op) {
  llvm::Value* base = BufferBase(op->buffer_var, "store");
  if (base == nullptr) return;
  const ir::DataType t = op->value.dtype();
  const ir::DataType elem = t.element_of();
  llvm::Value* value = VisitExpr(op->value);
  if (elem.is_bool()) value = builder_->CreateZExt(value, MemoryTypeOf(t));
  llvm::Type* mem = MemoryTypeOf(elem);
  auto index = [&](const ir::Expr& e) {
    in_index_ = true;
    llvm::Value* v = IndexToI64(e.dtype(), VisitExpr(e));
    in_index_ = false;
    return v;
  };
  const auto* ramp = op->index.As<ir::RampNode>();
  llvm::Instruction* store = nullptr;
  if (t.is_scalar()) {
    llvm::Value* ptr = builder_->CreateInBoundsGEP(mem, base, index(op->index));
    store = builder_->CreateAlignedStore(value, ptr, AlignOf(op->buffer_var, op->index, elem));
  } else if (ramp != nullptr && ir::IsConstInt(ramp->stride, 1)) {
    llvm::Value* ptr = builder_->CreateInBoundsGEP(mem, base, index(ramp->base));
    store = builder_->CreateAlignedStore(value, ptr, AlignOf(op->buffer_var, ramp->base, elem));
  } else {
    // Lanes are written in order, so with repeated indices the last lane wins, as in the IR.
    llvm::Value* ptrs = builder_->CreateInBoundsGEP(mem, base, index(op->index));
    store = builder_->CreateMaskedScatter(
        value, ptrs, llvm::Align(static_cast<uint64_t>(std::max(1, elem.bytes()))));
  }
  AddAliasInfo(store, op->buffer_var);
}

// Stack storage (in the entry block, so loops do not grow the stack) for small constant sizes;
// aligned_alloc otherwise, freed after the body. Returns null after reporting an error.
llvm::Value* CodeGenLLVM::AllocateStorage(const ir::AllocateNode* op, int64_t* const_bytes) {
  const ir::DataType elem = op->dtype.element_of();
  llvm::Type* mem = MemoryTypeOf(elem);
  const int64_t elem_bytes = static_cast<int64_t>(module_.getDataLayout().getTypeAllocSize(mem));
  int64_t count = op->dtype.lanes();
  bool constant = true;
  for (const ir::Expr& e : op->extents) {
    std::optional<int64_t> c = ir::AsConstInt(e);
    if (!c || *c < 0 || (*c > 0 && count > (int64_t{1} << 40) / *c)) {
      constant = false;
      break;
    }
    count *= *c;
  }
  if (constant && count * elem_bytes <= kMaxStackBytes) {
    *const_bytes = count * elem_bytes;
    return EntryAlloca(
        llvm::ArrayType::get(mem, static_cast<uint64_t>(std::max<int64_t>(count, 1))),
        llvm::Align(kBaseAlign));
  }
  *const_bytes = -1;
  llvm::Type* i64 = builder_->getInt64Ty();
  llvm::Value* bytes =
      llvm::ConstantInt::get(i64, static_cast<uint64_t>(op->dtype.lanes() * elem_bytes));
  for (const ir::Expr& e : op->extents) {
    if (!e.dtype().is_integral() || e.dtype().is_vector()) {
      Fail(absl::InvalidArgumentError(
          absl::StrCat("allocation ", op->buffer_var.name(), " has a non-integer extent")));
      return nullptr;
    }
    bytes = builder_->CreateMul(bytes, IndexToI64(e.dtype(), VisitExpr(e)));
  }
  // aligned_alloc wants a multiple of the alignment, and at least one block.
  llvm::Value* rounded =
      builder_->CreateAnd(builder_->CreateAdd(bytes, llvm::ConstantInt::get(i64, kBaseAlign - 1)),
                          llvm::ConstantInt::get(i64, ~static_cast<uint64_t>(kBaseAlign - 1)));
  rounded = builder_->CreateBinaryIntrinsic(llvm::Intrinsic::umax, rounded,
                                            llvm::ConstantInt::get(i64, kBaseAlign));
  llvm::PointerType* ptr_ty = builder_->getPtrTy();
  llvm::FunctionCallee aligned_alloc =
      module_.getOrInsertFunction("aligned_alloc", ptr_ty, i64, i64);
  // The runtime's pool when the loader set it (it keeps the pages for the next call).
  llvm::Value* pool = builder_->CreateLoad(ptr_ty, workspace_alloc_, "workspace_alloc");
  llvm::Value* alloc_fn =
      builder_->CreateSelect(builder_->CreateIsNull(pool), aligned_alloc.getCallee(), pool);
  llvm::Value* p = builder_->CreateCall(aligned_alloc.getFunctionType(), alloc_fn,
                                        {llvm::ConstantInt::get(i64, kBaseAlign), rounded});
  // Out of memory: the kernel returns -1 (the runtime reports a failed call).
  llvm::Value* failed = builder_->CreateIsNull(p);
  ReturnIfNonZero(builder_->CreateSExt(failed, builder_->getInt32Ty()));
  return p;
}

void CodeGenLLVM::VisitStmt_(const ir::AllocateNode* op) {
  int64_t const_bytes = -1;
  llvm::Value* storage = AllocateStorage(op, &const_bytes);
  if (storage == nullptr) return;
  BindVar(op->buffer_var, storage);
  buffers_[op->buffer_var.get()] = BufferInfo{-1, kBaseAlign};
  VisitStmt(op->body);
  state_.vars.erase(op->buffer_var.get());
  if (const_bytes < 0) {
    llvm::FunctionCallee free_fn =
        module_.getOrInsertFunction("free", builder_->getVoidTy(), builder_->getPtrTy());
    llvm::Value* pool =
        builder_->CreateLoad(builder_->getPtrTy(), workspace_free_, "workspace_free");
    llvm::Value* callee =
        builder_->CreateSelect(builder_->CreateIsNull(pool), free_fn.getCallee(), pool);
    builder_->CreateCall(free_fn.getFunctionType(), callee, {storage});
  }
}

}  // namespace tunefarm::codegen
