// CodeGenCuda: CUDA C source for the kernels SplitHostDevice cut out of lowered functions —
// extern "C" __global__ kernels with __restrict__ parameters, __shared__ and local arrays,
// __syncthreads(), float2/float4 accesses where a ramp is contiguous and aligned (scalarized
// otherwise). Expressions are in codegen_cuda_expr.cc, statements in codegen_cuda_stmt.cc.
#pragma once

#include <cstdint>
#include <sstream>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "absl/status/statusor.h"
#include "compiler/codegen/cuda/split_host_device.h"
#include "compiler/ir/function.h"

namespace tunefarm::codegen::cuda {

// The whole translation unit: helper functions, then every kernel of every function in order.
absl::StatusOr<std::string> EmitCudaSource(const std::vector<ir::PrimFunc>& funcs,
                                           const std::vector<std::vector<DeviceKernel>>& kernels);

// The C type of a scalar IR type ("float", "long long"); empty for a type CUDA C lacks here.
std::string CudaTypeName(ir::DataType t);

class CodeGenCuda {
 public:
  CodeGenCuda(const ir::PrimFunc& func, const DeviceKernel& kernel) : func_(func), k_(kernel) {}
  // Appends the kernel's definition to `out`.
  absl::Status Emit(std::ostringstream& out);

 private:
  // Expressions. `lane` >= 0 selects one lane of a vector expression; -1 means scalar.
  std::string Expr(const ir::Expr& e, int lane = -1);
  std::string Operand(const ir::Expr& e, int lane) {
    return Expr(e, e.dtype().is_vector() ? lane : -1);
  }
  std::string Binary(const char* op, const ir::Expr& a, const ir::Expr& b, int lane);
  std::string Call(const ir::CallNode* op, int lane);
  std::string Literal(const ir::Expr& e);
  // A whole vector value as float2/float4/int2/int4 (for an aligned vector store).
  std::string VectorValue(const ir::Expr& e);
  // Declares each aligned contiguous vector load `e` always evaluates (not one under a lazy
  // if_then_else branch) as a float2/float4 temporary whose lanes the store then reads.
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
  std::ostringstream* out_ = nullptr;
  int indent_ = 0;
  std::unordered_map<const ir::VarNode*, std::string> names_;
  std::unordered_set<std::string> used_names_;
  std::unordered_set<const ir::VarNode*> declared_;
  std::unordered_map<const ir::ExprNode*, std::string> vector_temps_;  // hoisted loads
  int64_t shared_bytes_ = 0;  // static __shared__ memory declared so far
  std::unordered_map<const ir::VarNode*, ir::DataType> elem_types_;  // buffer var -> element
  std::unordered_map<std::string, ir::Expr> open_tags_;  // thread tags bound around this point
  absl::Status status_;
};

}  // namespace tunefarm::codegen::cuda
