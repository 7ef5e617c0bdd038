// CodeGenLLVM, parallel loops: the body of a `parallel` For is outlined into a TFParallelLambda
// (runtime/core/c_abi.h). The variables it reads are stored in a closure struct on the caller's
// stack; task t of T runs its own contiguous chunk; the launch goes through the module's
// `__tf_parallel_launch` pointer, which the loader sets. A parallel loop nested in another runs
// serially inside its task (the outer one already occupies the pool).
#include "absl/strings/str_cat.h"
#include "compiler/codegen/llvm/codegen_llvm.h"
#include "compiler/codegen/llvm/free_vars.h"

namespace tunefarm::codegen {

void CodeGenLLVM::EmitParallelFor(const ir::ForNode* op) {
  llvm::Value* min = VisitExpr(op->min);
  llvm::Value* extent = VisitExpr(op->extent);
  std::vector<ir::Var> captures;
  std::vector<llvm::Type*> fields = {min->getType(), extent->getType()};
  for (const ir::Var& v : FreeVars(op->body)) {
    if (v.same_as(op->loop_var)) continue;
    auto it = state_.vars.find(v.get());
    if (it == state_.vars.end()) {
      Fail(absl::InvalidArgumentError(absl::StrCat("variable ", v.name(),
                                                   " is used in parallel loop ",
                                                   op->loop_var.name(), " but not defined")));
      return;
    }
    captures.push_back(v);
    fields.push_back(it->second->getType());
  }
  llvm::StructType* closure_type = llvm::StructType::get(ctx_, fields);
  llvm::AllocaInst* closure = EntryAlloca(closure_type, llvm::Align(8));
  builder_->CreateStore(min, builder_->CreateStructGEP(closure_type, closure, 0));
  builder_->CreateStore(extent, builder_->CreateStructGEP(closure_type, closure, 1));
  for (size_t i = 0; i < captures.size(); ++i) {
    builder_->CreateStore(state_.vars.at(captures[i].get()),
                          builder_->CreateStructGEP(closure_type, closure, 2 + i));
  }
  llvm::Function* lambda = OutlineParallelBody(op, captures, closure_type);
  llvm::Type* i32 = builder_->getInt32Ty();
  llvm::Type* ptr = builder_->getPtrTy();
  llvm::FunctionType* launch_type = llvm::FunctionType::get(i32, {ptr, ptr, i32}, false);
  llvm::Value* launch = builder_->CreateLoad(ptr, parallel_launch_, "parallel_launch");
  // num_tasks 0: as many tasks as the pool is wide.
  llvm::Value* rc =
      builder_->CreateCall(launch_type, launch, {lambda, closure, builder_->getInt32(0)});
  ReturnIfNonZero(rc);
}

llvm::Function* CodeGenLLVM::OutlineParallelBody(const ir::ForNode* op,
                                                 const std::vector<ir::Var>& captures,
                                                 llvm::StructType* closure_type) {
  llvm::Type* i32 = builder_->getInt32Ty();
  llvm::Type* i64 = builder_->getInt64Ty();
  llvm::FunctionType* type = llvm::FunctionType::get(i32, {i32, i32, builder_->getPtrTy()}, false);
  llvm::Function* fn = NewFunction(type, llvm::GlobalValue::InternalLinkage,
                                   absl::StrCat("__tf_parallel_", func_name_, "_", num_lambdas_++));
  FunctionState outer = std::move(state_);
  llvm::IRBuilderBase::InsertPoint outer_ip = builder_->saveIP();
  llvm::Value* outer_mask = mask_;
  state_ = FunctionState{fn, {}, true};
  mask_ = nullptr;
  builder_->SetInsertPoint(llvm::BasicBlock::Create(ctx_, "entry", fn));

  llvm::Value* task = fn->getArg(0);
  llvm::Value* num_tasks = fn->getArg(1);
  llvm::Value* closure = fn->getArg(2);
  auto field = [&](unsigned i) {
    return builder_->CreateLoad(closure_type->getElementType(i),
                                builder_->CreateStructGEP(closure_type, closure, i));
  };
  llvm::Value* min = field(0);
  llvm::Value* extent = field(1);
  for (size_t i = 0; i < captures.size(); ++i) BindVar(captures[i], field(2 + i));

  // Chunk arithmetic in 64 bits: ceil(extent / num_tasks) iterations per task.
  const bool is_signed = op->loop_var.dtype().is_int();
  llvm::Value* n = builder_->CreateIntCast(extent, i64, is_signed);
  llvm::Value* tasks = builder_->CreateSExt(num_tasks, i64);
  llvm::Value* step = builder_->CreateSDiv(
      builder_->CreateAdd(n, builder_->CreateSub(tasks, builder_->getInt64(1))), tasks);
  llvm::Value* lo = builder_->CreateMul(builder_->CreateSExt(task, i64), step);
  lo = builder_->CreateBinaryIntrinsic(llvm::Intrinsic::smin, lo, n);
  llvm::Value* hi =
      builder_->CreateBinaryIntrinsic(llvm::Intrinsic::smin, builder_->CreateAdd(lo, step), n);
  llvm::Type* t = min->getType();
  llvm::Value* begin = builder_->CreateAdd(min, builder_->CreateTrunc(lo, t));
  llvm::Value* end = builder_->CreateAdd(min, builder_->CreateTrunc(hi, t));
  {
    auto scope = analyzer_.BindScoped(op->loop_var, ir::Range::FromMinExtent(op->min, op->extent));
    EmitLoop(op->loop_var, begin, end, nullptr, [&] { VisitStmt(op->body); });
  }
  builder_->CreateRet(builder_->getInt32(0));

  state_ = std::move(outer);
  mask_ = outer_mask;
  builder_->restoreIP(outer_ip);
  return fn;
}

}  // namespace tunefarm::codegen
