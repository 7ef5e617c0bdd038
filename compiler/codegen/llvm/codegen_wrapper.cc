// CodeGenLLVM, functions: the packed entry point each kernel exports (TFKernelFunc: unpacks
// TFValue arguments and DLTensors), the internal body function it calls (noalias, 64-byte aligned
// buffer parameters), and the module's ABI symbols (runtime/core/c_abi.h).
#include "absl/strings/str_cat.h"
#include "compiler/codegen/llvm/codegen_llvm.h"
#include "runtime/core/c_abi.h"

namespace tunefarm::codegen {
namespace {

// Field numbers of DLPack's DLTensor: {data, device, ndim, dtype, shape, strides, byte_offset}.
constexpr unsigned kDLTensorData = 0;
constexpr unsigned kDLTensorShape = 4;
constexpr unsigned kDLTensorByteOffset = 6;
// Parameters' data is 64-byte aligned: the runtime checks it before every call.
constexpr uint64_t kParamAlign = 64;

}  // namespace

CodeGenLLVM::CodeGenLLVM(llvm::Module& module, llvm::TargetMachine& tm)
    : ctx_(module.getContext()),
      module_(module),
      tm_(tm),
      builder_(std::make_unique<llvm::IRBuilder<>>(ctx_)),
      md_(std::make_unique<llvm::MDBuilder>(ctx_)) {
  // Contraction lets a*b+c become one FMA: more accurate than the IR's two roundings, and what
  // makes matmul fast. Tests compare with a tolerance for this reason.
  llvm::FastMathFlags fmf;
  fmf.setAllowContract(true);
  builder_->setFastMathFlags(fmf);
  llvm::PointerType* ptr = builder_->getPtrTy();
  parallel_launch_ =
      new llvm::GlobalVariable(module_, ptr, false, llvm::GlobalValue::ExternalLinkage,
                               llvm::ConstantPointerNull::get(ptr), "__tf_parallel_launch");
  // Referenced directly, not through the GOT: each module must use its own copy even when an
  // earlier library in the process exports the same name.
  parallel_launch_->setDSOLocal(true);
  for (auto [global, name] : {std::pair{&workspace_alloc_, TF_WORKSPACE_ALLOC_SYMBOL},
                              {&workspace_free_, TF_WORKSPACE_FREE_SYMBOL}}) {
    *global = new llvm::GlobalVariable(module_, ptr, false, llvm::GlobalValue::ExternalLinkage,
                                       llvm::ConstantPointerNull::get(ptr), name);
    (*global)->setDSOLocal(true);
  }
}

CodeGenLLVM::~CodeGenLLVM() = default;

absl::Status CodeGenLLVM::AddFunction(const ir::PrimFunc& func, const KernelArgs& args) {
  func_name_ = func.name;
  llvm::Function* body = EmitBodyFunction(func, args);
  EmitPackedEntry(func, args, body);
  state_ = FunctionState();
  buffers_.clear();
  return status_;
}

absl::Status CodeGenLLVM::AddEntrySharingBody(const ir::PrimFunc& func, const KernelArgs& args,
                                              const ir::PrimFunc& same) {
  llvm::Function* body = module_.getFunction(absl::StrCat("__tf_body_", same.name));
  if (body == nullptr) {
    return absl::InternalError(
        absl::StrCat("the body of ", same.name, " (shared by ", func.name, ") was not generated"));
  }
  func_name_ = func.name;
  EmitPackedEntry(func, args, body);
  state_ = FunctionState();
  buffers_.clear();
  return status_;
}

void CodeGenLLVM::DefineManifest(const std::string& manifest) {
  llvm::Constant* text = llvm::ConstantDataArray::getString(ctx_, manifest, true);
  auto* gv = new llvm::GlobalVariable(module_, text->getType(), true,
                                      llvm::GlobalValue::ExternalLinkage, text, "__tf_manifest");
  gv->setDSOLocal(true);
}

llvm::Function* CodeGenLLVM::NewFunction(llvm::FunctionType* type,
                                         llvm::GlobalValue::LinkageTypes linkage,
                                         const std::string& name) {
  llvm::Function* fn = llvm::Function::Create(type, linkage, name, module_);
  fn->addFnAttr(llvm::Attribute::NoUnwind);
  fn->addFnAttr("target-cpu", tm_.getTargetCPU());
  if (!tm_.getTargetFeatureString().empty()) {
    fn->addFnAttr("target-features", tm_.getTargetFeatureString());
  }
  if (!fn->hasLocalLinkage()) fn->setDSOLocal(true);
  return fn;
}

llvm::StructType* CodeGenLLVM::DLTensorType() {
  if (dltensor_type_ == nullptr) {
    llvm::Type* i8 = builder_->getInt8Ty();
    llvm::Type* i16 = builder_->getInt16Ty();
    llvm::Type* i32 = builder_->getInt32Ty();
    llvm::Type* ptr = builder_->getPtrTy();
    dltensor_type_ = llvm::StructType::create(
        ctx_,
        {ptr, llvm::StructType::get(ctx_, {i32, i32}), i32,
         llvm::StructType::get(ctx_, {i8, i8, i16}), ptr, ptr, builder_->getInt64Ty()},
        "DLTensor");
  }
  return dltensor_type_;
}

// body(data pointers..., shape variables..., scalar arguments...) -> 0, or nonzero on failure.
// Internal names start with __tf_, which kernel names may not (kernel_args.h), so they never clash.
llvm::Function* CodeGenLLVM::EmitBodyFunction(const ir::PrimFunc& func, const KernelArgs& args) {
  std::vector<llvm::Type*> params(func.params.size(), builder_->getPtrTy());
  for (const ShapeVarSource& s : args.shape_vars) params.push_back(TypeOf(s.var.dtype()));
  for (const ir::Var& v : args.scalars) params.push_back(TypeOf(v.dtype()));
  llvm::Function* fn =
      NewFunction(llvm::FunctionType::get(builder_->getInt32Ty(), params, false),
                  llvm::GlobalValue::InternalLinkage, absl::StrCat("__tf_body_", func.name));
  state_ = FunctionState{fn, {}, false};
  builder_->SetInsertPoint(llvm::BasicBlock::Create(ctx_, "entry", fn));

  llvm::MDNode* domain = md_->createAnonymousAliasScopeDomain(func.name);
  alias_scopes_.clear();
  unsigned arg = 0;
  for (size_t i = 0; i < func.params.size(); ++i, ++arg) {
    const ir::Buffer& b = func.params[i];
    fn->addParamAttr(arg, llvm::Attribute::NoAlias);
    fn->addParamAttr(arg, llvm::Attribute::getWithAlignment(ctx_, llvm::Align(kParamAlign)));
    fn->getArg(arg)->setName(b->name);
    alias_scopes_.push_back(md_->createAnonymousAliasScope(domain, b->name));
    BindVar(b->data, fn->getArg(arg));
    buffers_[b->data.get()] = BufferInfo{static_cast<int>(i), static_cast<int>(kParamAlign)};
  }
  for (const ShapeVarSource& s : args.shape_vars) {
    fn->getArg(arg)->setName(s.var.name());
    BindVar(s.var, fn->getArg(arg++));
  }
  for (const ir::Var& v : args.scalars) {
    fn->getArg(arg)->setName(v.name());
    BindVar(v, fn->getArg(arg++));
  }
  VisitStmt(func.body);
  builder_->CreateRet(builder_->getInt32(0));
  return fn;
}

// int32 name(const TFValue* args, const int32_t* type_codes, int32_t num_args): the runtime has
// checked every argument against the signature, so this only unpacks them.
void CodeGenLLVM::EmitPackedEntry(const ir::PrimFunc& func, const KernelArgs& args,
                                  llvm::Function* body) {
  llvm::Type* i64 = builder_->getInt64Ty();
  llvm::Type* ptr = builder_->getPtrTy();
  llvm::Function* fn = NewFunction(
      llvm::FunctionType::get(builder_->getInt32Ty(), {ptr, ptr, builder_->getInt32Ty()}, false),
      llvm::GlobalValue::ExternalLinkage, func.name);
  state_ = FunctionState{fn, {}, false};
  builder_->SetInsertPoint(llvm::BasicBlock::Create(ctx_, "entry", fn));
  llvm::Value* values = fn->getArg(0);
  llvm::StructType* dl = DLTensorType();
  auto slot = [&](size_t i) { return builder_->CreateConstInBoundsGEP1_64(i64, values, i); };

  std::vector<llvm::Value*> call_args;
  std::vector<llvm::Value*> tensors;
  for (size_t i = 0; i < func.params.size(); ++i) {
    llvm::Value* t = builder_->CreateLoad(ptr, slot(i));
    tensors.push_back(t);
    llvm::Value* data = builder_->CreateLoad(ptr, builder_->CreateStructGEP(dl, t, kDLTensorData));
    llvm::Value* offset =
        builder_->CreateLoad(i64, builder_->CreateStructGEP(dl, t, kDLTensorByteOffset));
    call_args.push_back(builder_->CreateInBoundsGEP(builder_->getInt8Ty(), data, offset));
  }
  for (const ShapeVarSource& s : args.shape_vars) {
    llvm::Value* shape =
        builder_->CreateLoad(ptr, builder_->CreateStructGEP(dl, tensors[s.param], kDLTensorShape));
    llvm::Value* extent = builder_->CreateLoad(
        i64, builder_->CreateConstInBoundsGEP1_64(i64, shape, static_cast<uint64_t>(s.dim)));
    call_args.push_back(builder_->CreateIntCast(extent, TypeOf(s.var.dtype()), true));
  }
  for (size_t k = 0; k < args.scalars.size(); ++k) {
    const ir::DataType t = args.scalars[k].dtype();
    llvm::Value* at = slot(func.params.size() + k);
    llvm::Value* v = nullptr;
    if (t.is_float()) {
      v = builder_->CreateFPCast(builder_->CreateLoad(builder_->getDoubleTy(), at), TypeOf(t));
    } else if (t.is_handle()) {
      v = builder_->CreateLoad(ptr, at);
    } else if (t.is_bool()) {
      v = builder_->CreateICmpNE(builder_->CreateLoad(i64, at), builder_->getInt64(0));
    } else {
      v = builder_->CreateIntCast(builder_->CreateLoad(i64, at), TypeOf(t), false);
    }
    call_args.push_back(v);
  }
  builder_->CreateRet(builder_->CreateCall(body, call_args));
}

}  // namespace tunefarm::codegen
