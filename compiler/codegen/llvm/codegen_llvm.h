// Private: CodeGenLLVM turns lowered PrimFuncs into LLVM IR in one llvm::Module. Its methods are
// defined by node family: codegen_expr.cc (values, arithmetic), codegen_cast.cc,
// codegen_intrinsics.cc (calls), codegen_memory.cc (loads, stores, allocations), codegen_stmt.cc
// (control flow), codegen_parallel.cc (outlined parallel loops) and codegen_wrapper.cc (the packed
// entry point and the module's ABI symbols).
#pragma once

#include <functional>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/MDBuilder.h>
#include <llvm/IR/Module.h>
#include <llvm/Target/TargetMachine.h>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include "absl/status/status.h"
#include "compiler/codegen/llvm/kernel_args.h"
#include "compiler/ir/arith/analyzer.h"
#include "compiler/ir/functor.h"

namespace tunefarm::codegen {

class CodeGenLLVM : public ir::ExprFunctor<llvm::Value*(const ir::Expr&)>,
                    public ir::StmtFunctor<void(const ir::Stmt&)> {
 public:
  // `module` must already carry the target's triple and data layout.
  CodeGenLLVM(llvm::Module& module, llvm::TargetMachine& tm);
  ~CodeGenLLVM() override;

  // Adds `func` as an exported TFKernelFunc plus the internal function holding its body. The
  // first unsupported construct is returned as an error naming it (the module is then unusable).
  absl::Status AddFunction(const ir::PrimFunc& func, const KernelArgs& args);
  // Adds `func`'s exported entry only, calling the body of `same`, added before with
  // AddFunction: the two compute the same (same_computation.h).
  absl::Status AddEntrySharingBody(const ir::PrimFunc& func, const KernelArgs& args,
                                   const ir::PrimFunc& same);
  // Defines the manifest symbol; call once, after the last AddFunction.
  void DefineManifest(const std::string& manifest);

  using ir::ExprFunctor<llvm::Value*(const ir::Expr&)>::VisitExpr;
  using ir::StmtFunctor<void(const ir::Stmt&)>::VisitStmt;

 private:
  // What the code generator knows about a storage handle.
  struct BufferInfo {
    int alias_scope = -1;  // index into alias_scopes_ for a parameter's data, else -1
    int align = 1;         // proven alignment of the base address, in bytes
  };
  // The state that belongs to the llvm::Function being filled (swapped when outlining).
  struct FunctionState {
    llvm::Function* fn = nullptr;
    std::unordered_map<const ir::VarNode*, llvm::Value*> vars;
    bool in_parallel = false;  // inside an outlined parallel loop: nested ones run serially
  };

  // ---- expressions (codegen_expr.cc)
#define TF_DECLARE_VISIT(Name) llvm::Value* VisitExpr_(const ir::Name##Node* op) override;
  TF_IR_EXPR_NODES(TF_DECLARE_VISIT)
#undef TF_DECLARE_VISIT
  llvm::Value* VisitExprDefault_(const ir::ExprNode* op) override;
  // Integer division family with the IR's semantics (codegen_expr.cc).
  llvm::Value* SignedDiv(llvm::Value* a, llvm::Value* b, bool remainder);
  llvm::Value* FloorDivMod(ir::DataType t, llvm::Value* a, llvm::Value* b, bool mod);
  llvm::Value* Compare(ir::ExprKind kind, ir::DataType operand, llvm::Value* a, llvm::Value* b);

  // ---- casts and intrinsics (codegen_cast.cc, codegen_intrinsics.cc)
  llvm::Value* Cast(ir::DataType from, ir::DataType to, llvm::Value* v);
  llvm::Value* FloatToInt(ir::DataType from, ir::DataType to, llvm::Value* v);
  llvm::Value* EmitIfThenElse(const ir::CallNode* op);
  llvm::Value* EmitMath(const ir::CallNode* op);
  llvm::Value* EmitLibmCall(llvm::Value* a, const char* name);
  llvm::Value* EmitExp(llvm::Value* x);
  llvm::Value* EmitErf(llvm::Value* x);
  llvm::Value* EmitDot4Add(const ir::CallNode* op);

  // ---- memory (codegen_memory.cc)
  llvm::Value* BufferBase(const ir::Var& buffer, const char* what);
  // Widens an integer index (scalar or vector) to i64, by its signedness.
  llvm::Value* IndexToI64(ir::DataType t, llvm::Value* index);
  // Alignment of element `index` of `buffer`, from the base's alignment and the index's residues.
  llvm::Align AlignOf(const ir::Var& buffer, const ir::Expr& index, ir::DataType elem);
  void AddAliasInfo(llvm::Instruction* inst, const ir::Var& buffer);
  llvm::Value* LoadScalarUnderMask(llvm::Type* type, llvm::Value* ptr, llvm::Align align,
                                   const ir::Var& buffer);
  llvm::Value* AllocateStorage(const ir::AllocateNode* op, int64_t* const_bytes);

  // ---- statements (codegen_stmt.cc)
#define TF_DECLARE_VISIT(Name) void VisitStmt_(const ir::Name##Node* op) override;
  TF_IR_STMT_NODES(TF_DECLARE_VISIT)
#undef TF_DECLARE_VISIT
  // for (var = begin; var < end; ++var) body(), with `loop_md` (may be null) on the back edge.
  void EmitLoop(const ir::Var& var, llvm::Value* begin, llvm::Value* end, llvm::MDNode* loop_md,
                const std::function<void()>& body);
  llvm::MDNode* LoopMetadata(const ir::ForNode* op);
  // Returns `rc` from the current function when it is nonzero.
  void ReturnIfNonZero(llvm::Value* rc);

  // ---- parallel loops (codegen_parallel.cc)
  void EmitParallelFor(const ir::ForNode* op);
  llvm::Function* OutlineParallelBody(const ir::ForNode* op, const std::vector<ir::Var>& captures,
                                      llvm::StructType* closure_type);

  // ---- functions and module symbols (codegen_wrapper.cc)
  llvm::Function* EmitBodyFunction(const ir::PrimFunc& func, const KernelArgs& args);
  void EmitPackedEntry(const ir::PrimFunc& func, const KernelArgs& args, llvm::Function* body);
  llvm::Function* NewFunction(llvm::FunctionType* type, llvm::GlobalValue::LinkageTypes linkage,
                              const std::string& name);
  llvm::StructType* DLTensorType();

  // ---- helpers (codegen_expr.cc)
  llvm::Type* TypeOf(ir::DataType t);
  // In-memory element type: bool takes a byte.
  llvm::Type* MemoryTypeOf(ir::DataType t);
  llvm::Value* Unsupported(const ir::ExprNode* op, const std::string& what);
  void Fail(absl::Status status);
  llvm::BasicBlock* NewBlock(const char* name);
  llvm::AllocaInst* EntryAlloca(llvm::Type* type, llvm::Align align);
  void BindVar(const ir::Var& v, llvm::Value* value);

  llvm::LLVMContext& ctx_;
  llvm::Module& module_;
  llvm::TargetMachine& tm_;
  std::unique_ptr<llvm::IRBuilder<>> builder_;
  std::unique_ptr<llvm::MDBuilder> md_;
  arith::Analyzer analyzer_;
  absl::Status status_;
  std::string func_name_;
  FunctionState state_;
  std::unordered_map<const ir::VarNode*, BufferInfo> buffers_;
  std::vector<llvm::MDNode*> alias_scopes_;  // of the current PrimFunc's parameters
  // Lanes that are live under a vector if_then_else (null: all of them).
  llvm::Value* mask_ = nullptr;
  // Emitting an address computation: integer overflow there would address outside the buffer,
  // so add/sub/mul are marked nsw, which lets LLVM widen and hoist index arithmetic.
  bool in_index_ = false;
  int num_lambdas_ = 0;
  llvm::GlobalVariable* parallel_launch_ = nullptr;
  // The runtime's workspace pool (c_abi.h), or null: aligned_alloc and free.
  llvm::GlobalVariable* workspace_alloc_ = nullptr;
  llvm::GlobalVariable* workspace_free_ = nullptr;
  llvm::StructType* dltensor_type_ = nullptr;
};

}  // namespace tunefarm::codegen
