// CodeGenGpu: the one C-family printer for the kernels SplitHostDevice cut out of lowered
// functions, in two dialects. CUDA C: extern "C" __global__ kernels, __restrict__ parameters,
// __shared__ arrays, __syncthreads(), float2/float4 accesses. OpenCL C: __kernel functions,
// __global restrict parameters, get_group_id/get_local_id, __local arrays (hoisted to the kernel's
// top, as OpenCL C requires), barrier(), vloadN/vstoreN, half where cl_khr_fp16 is enabled.
// Expressions are in codegen_gpu_expr.cc, statements in codegen_gpu_stmt.cc.
#pragma once

#include <cstdint>
#include <set>
#include <sstream>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "absl/status/statusor.h"
#include "compiler/codegen/gpu/split_host_device.h"
#include "compiler/ir/function.h"

namespace tunefarm::codegen::gpu {

enum class GpuDialect { kCuda, kOpenCl };

// The whole translation unit: helper functions, then every kernel of every function in order.
absl::StatusOr<std::string> EmitGpuSource(const std::vector<ir::PrimFunc>& funcs,
                                          const std::vector<std::vector<DeviceKernel>>& kernels,
                                          GpuDialect dialect);

// The C type of a scalar IR type in `dialect` ("float", "long long" / "long"); empty for a type
// the dialect lacks here.
std::string GpuTypeName(ir::DataType t, GpuDialect dialect);

class CodeGenGpu {
 public:
  CodeGenGpu(const ir::PrimFunc& func, const DeviceKernel& kernel, GpuDialect dialect)
      : func_(func), k_(kernel), dialect_(dialect) {}
  // Appends the kernel's definition to `out`.
  absl::Status Emit(std::ostringstream& out);
  // Helpers ("floordiv_i32", ...) and extensions ("cl_khr_fp16") the kernel used, which the
  // translation unit must define or enable first.
  const std::set<std::string>& helpers() const { return helpers_; }

 private:
  bool opencl() const { return dialect_ == GpuDialect::kOpenCl; }
  // GpuTypeName; an OpenCL half also records that the kernel needs cl_khr_fp16.
  std::string TypeName(ir::DataType t) {
    if (opencl() && t.is_float() && t.bits() == 16) helpers_.insert("cl_khr_fp16");
    if (opencl() && t.is_float() && t.bits() == 64) helpers_.insert("cl_khr_fp64");
    return GpuTypeName(t, dialect_);
  }

  // Expressions. `lane` >= 0 selects one lane of a vector expression; -1 means scalar.
  std::string Expr(const ir::Expr& e, int lane = -1);
  std::string Operand(const ir::Expr& e, int lane) {
    return Expr(e, e.dtype().is_vector() ? lane : -1);
  }
  std::string Binary(const char* op, const ir::Expr& a, const ir::Expr& b, int lane);
  // tf_floordiv/tf_floormod/tf_min/tf_max: CUDA's are templates; OpenCL C has none, so each type
  // gets its own ("tf_floordiv_i32"), recorded in helpers_.
  std::string Helper(const char* name, const ir::Expr& a, const ir::Expr& b, int lane);
  std::string Call(const ir::CallNode* op, int lane);
  std::string Literal(const ir::Expr& e);
  // A whole vector value as float2/float4/int2/int4 (for an aligned vector store).
  std::string VectorValue(const ir::Expr& e);
  // An aligned contiguous load of a whole vector.
  std::string VectorLoad(const ir::LoadNode* load, ir::DataType t);
  // Declares each aligned contiguous vector load `e` always evaluates (not one under a lazy
  // if_then_else branch) as a vector temporary whose lanes the store then reads.
  void HoistVectorLoads(const ir::Expr& e, std::vector<std::string>* decls);
  // `ramp` is a stride-1 ramp of 2 or 4 lanes whose base is a multiple of the lanes.
  static bool IsAlignedContiguous(const ir::Expr& index, ir::DataType value_type);

  // Statements.
  void Stmt(const ir::Stmt& s);
  void Store(const ir::StoreNode* op);
  void Allocate(const ir::AllocateNode* op);
  void ThreadExtent(const ir::AttrStmtNode* op);
  void Line(const std::string& text);
  // Declares `decl` for `v` and emits `body` after it, inside braces when `v` was declared before:
  // passes may repeat a subtree (unrolled virtual threads), and C forbids redeclaring in a scope.
  void Declare(const ir::Var& v, const std::string& decl, const ir::Stmt& body);

  std::string Name(const ir::Var& v);  // a unique C identifier for a variable
  std::string Fresh(const std::string& hint);
  void Fail(absl::Status st) {
    if (status_.ok()) status_ = std::move(st);
  }

  const ir::PrimFunc& func_;
  const DeviceKernel& k_;
  GpuDialect dialect_;
  std::ostringstream* out_ = nullptr;
  int indent_ = 0;
  std::unordered_map<const ir::VarNode*, std::string> names_;
  std::unordered_set<std::string> used_names_;
  std::unordered_set<const ir::VarNode*> declared_;
  std::unordered_map<const ir::ExprNode*, std::string> vector_temps_;  // hoisted loads
  int64_t shared_bytes_ = 0;  // static shared / __local memory declared so far
  std::unordered_map<const ir::VarNode*, ir::DataType> elem_types_;  // buffer var -> element
  std::unordered_map<std::string, ir::Expr> open_tags_;  // thread tags bound around this point
  // OpenCL: __local arrays, declared once at the top of the kernel.
  std::vector<std::string> local_decls_;
  std::unordered_set<const ir::VarNode*> local_declared_;
  std::set<std::string> helpers_;
  absl::Status status_;
};

}  // namespace tunefarm::codegen::gpu
