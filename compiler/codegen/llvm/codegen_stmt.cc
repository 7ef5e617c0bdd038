// CodeGenLLVM, statements: loops (with unroll and vectorize hints for loops the passes left
// marked), branches with `likely` weights, lets, asserts, attributes, and the nodes a CPU target
// rejects (thread bindings, barriers, unflattened buffers).
#include "absl/strings/str_cat.h"
#include "compiler/codegen/llvm/codegen_llvm.h"

namespace tunefarm::codegen {
namespace {

bool IsLikely(const ir::Expr& cond) {
  const auto* call = cond.As<ir::CallNode>();
  return call != nullptr && call->op == ir::Intrinsic::kLikely;
}

}  // namespace

void CodeGenLLVM::ReturnIfNonZero(llvm::Value* rc) {
  llvm::BasicBlock* fail_bb = NewBlock("return_error");
  llvm::BasicBlock* ok_bb = NewBlock("ok");
  builder_->CreateCondBr(builder_->CreateICmpNE(rc, builder_->getInt32(0)), fail_bb, ok_bb,
                         md_->createUnlikelyBranchWeights());
  builder_->SetInsertPoint(fail_bb);
  builder_->CreateRet(rc);
  builder_->SetInsertPoint(ok_bb);
}

void CodeGenLLVM::EmitLoop(const ir::Var& var, llvm::Value* begin, llvm::Value* end,
                           llvm::MDNode* loop_md, const std::function<void()>& body) {
  llvm::BasicBlock* preheader = builder_->GetInsertBlock();
  llvm::BasicBlock* header = NewBlock("for_begin");
  llvm::BasicBlock* body_bb = NewBlock("for_body");
  llvm::BasicBlock* exit_bb = NewBlock("for_end");
  builder_->CreateBr(header);
  builder_->SetInsertPoint(header);
  llvm::PHINode* i = builder_->CreatePHI(begin->getType(), 2, var.name());
  i->addIncoming(begin, preheader);
  const bool is_signed = var.dtype().is_int();
  llvm::Value* more = is_signed ? builder_->CreateICmpSLT(i, end) : builder_->CreateICmpULT(i, end);
  builder_->CreateCondBr(more, body_bb, exit_bb);
  builder_->SetInsertPoint(body_bb);
  BindVar(var, i);
  body();
  // i < end, so i + 1 cannot overflow.
  llvm::Value* next =
      builder_->CreateAdd(i, llvm::ConstantInt::get(i->getType(), 1), "", !is_signed, is_signed);
  llvm::BranchInst* back = builder_->CreateBr(header);
  if (loop_md != nullptr) back->setMetadata(llvm::LLVMContext::MD_loop, loop_md);
  i->addIncoming(next, builder_->GetInsertBlock());
  builder_->SetInsertPoint(exit_bb);
  state_.vars.erase(var.get());
}

// Loops still marked unrolled or vectorized here are ones the passes could not expand (a
// symbolic extent, a body that does not vectorize); LLVM gets the same request as a hint.
llvm::MDNode* CodeGenLLVM::LoopMetadata(const ir::ForNode* op) {
  std::vector<llvm::Metadata*> ops;
  if (op->for_kind == ir::ForKind::kUnrolled) {
    ops.push_back(llvm::MDNode::get(ctx_, {llvm::MDString::get(ctx_, "llvm.loop.unroll.full")}));
  } else if (op->for_kind == ir::ForKind::kVectorized) {
    ops.push_back(llvm::MDNode::get(ctx_, {llvm::MDString::get(ctx_, "llvm.loop.vectorize.enable"),
                                           llvm::ConstantAsMetadata::get(builder_->getTrue())}));
  } else {
    return nullptr;
  }
  ops.insert(ops.begin(), nullptr);
  llvm::MDNode* loop = llvm::MDNode::getDistinct(ctx_, ops);
  loop->replaceOperandWith(0, loop);
  return loop;
}

void CodeGenLLVM::VisitStmt_(const ir::ForNode* op) {
  if (op->for_kind == ir::ForKind::kThreadBinding) {
    Fail(absl::InvalidArgumentError(absl::StrCat(
        "loop ", op->loop_var.name(), " is bound to ", op->thread_tag,
        ", a GPU thread index; a CPU target has none (use parallel or vectorize instead)")));
    return;
  }
  if (op->for_kind == ir::ForKind::kParallel && !state_.in_parallel) {
    EmitParallelFor(op);
    return;
  }
  llvm::Value* begin = VisitExpr(op->min);
  llvm::Value* end = builder_->CreateAdd(begin, VisitExpr(op->extent));
  auto scope = analyzer_.BindScoped(op->loop_var, ir::Range::FromMinExtent(op->min, op->extent));
  EmitLoop(op->loop_var, begin, end, LoopMetadata(op), [&] { VisitStmt(op->body); });
}

void CodeGenLLVM::VisitStmt_(const ir::IfThenElseNode* op) {
  if (op->condition.dtype().is_vector()) {
    Fail(absl::InvalidArgumentError("IfThenElse with a vector condition"));
    return;
  }
  llvm::Value* c = VisitExpr(op->condition);
  llvm::BasicBlock* then_bb = NewBlock("if_then");
  llvm::BasicBlock* else_bb = op->else_case.defined() ? NewBlock("if_else") : nullptr;
  llvm::BasicBlock* end_bb = NewBlock("if_end");
  builder_->CreateCondBr(c, then_bb, else_bb ? else_bb : end_bb,
                         IsLikely(op->condition) ? md_->createLikelyBranchWeights() : nullptr);
  builder_->SetInsertPoint(then_bb);
  {
    auto scope = analyzer_.EnterConstraint(op->condition);
    VisitStmt(op->then_case);
  }
  builder_->CreateBr(end_bb);
  if (else_bb != nullptr) {
    builder_->SetInsertPoint(else_bb);
    VisitStmt(op->else_case);
    builder_->CreateBr(end_bb);
  }
  builder_->SetInsertPoint(end_bb);
}

void CodeGenLLVM::VisitStmt_(const ir::LetStmtNode* op) {
  llvm::Value* value = VisitExpr(op->value);
  BindVar(op->var, value);
  std::optional<arith::Analyzer::Scope> scope;
  if (op->var.dtype().is_integral() && op->var.dtype().is_scalar()) {
    scope.emplace(analyzer_.BindScoped(op->var, op->value));
  }
  VisitStmt(op->body);
  state_.vars.erase(op->var.get());
}

// A failed assertion makes the kernel return -1, which the runtime reports as a failed call.
void CodeGenLLVM::VisitStmt_(const ir::AssertStmtNode* op) {
  llvm::Value* c = VisitExpr(op->condition);
  ReturnIfNonZero(builder_->CreateSelect(c, builder_->getInt32(0), builder_->getInt32(-1)));
  VisitStmt(op->body);
}

void CodeGenLLVM::VisitStmt_(const ir::AttrStmtNode* op) {
  if (op->key == ir::attr::kThreadExtent) {
    const auto* iv = std::get_if<ir::IterVar>(&op->node);
    Fail(absl::InvalidArgumentError(absl::StrCat(
        "thread binding ", iv ? (*iv)->thread_tag : std::string("?"),
        " on a CPU target: blockIdx/threadIdx exist only on GPU targets (use parallel or "
        "vectorize instead)")));
    return;
  }
  if (op->key == ir::attr::kVirtualThread) {
    // Without barriers (a CPU has none), running the virtual threads one after another is exact.
    const auto* iv = std::get_if<ir::IterVar>(&op->node);
    if (iv == nullptr) {
      Fail(absl::InvalidArgumentError("virtual_thread attribute without an iteration variable"));
      return;
    }
    llvm::Value* extent = VisitExpr(op->value);
    llvm::Value* zero = llvm::Constant::getNullValue(extent->getType());
    auto scope = analyzer_.BindScoped(
        (*iv)->var, ir::Range::FromMinExtent(ir::MakeZero(op->value.dtype()), op->value));
    EmitLoop((*iv)->var, zero, extent, nullptr, [&] { VisitStmt(op->body); });
    return;
  }
  VisitStmt(op->body);  // produce, storage_scope and pragmas need no code
}

void CodeGenLLVM::VisitStmt_(const ir::SeqStmtNode* op) {
  for (const ir::Stmt& s : op->seq) VisitStmt(s);
}

void CodeGenLLVM::VisitStmt_(const ir::EvaluateNode* op) {
  if (op->value.As<ir::IntImmNode>() != nullptr) return;
  VisitExpr(op->value);
}

void CodeGenLLVM::VisitStmt_(const ir::BufferStoreNode* op) {
  Fail(absl::InvalidArgumentError(absl::StrCat("BufferStore to ", op->buffer->name,
                                               " survived lowering (run storage_flatten first)")));
}

void CodeGenLLVM::VisitStmt_(const ir::BufferRealizeNode* op) {
  Fail(absl::InvalidArgumentError(absl::StrCat("BufferRealize of ", op->buffer->name,
                                               " survived lowering (run storage_flatten first)")));
}

}  // namespace tunefarm::codegen
