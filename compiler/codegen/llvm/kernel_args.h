// KernelArgs: how a PrimFunc's inputs reach generated code — tensors, shape variables read from
// their DLTensor shapes, and the remaining free variables as scalar arguments — and the runtime
// signature (SignatureOf) that describes the same thing to callers. No LLVM here.
#pragma once

#include <vector>

#include "absl/status/statusor.h"
#include "compiler/ir/function.h"
#include "runtime/core/function_signature.h"

namespace tunefarm::codegen {

// A symbolic extent: `var` is dimension `dim` of tensor argument `param` (its first occurrence).
struct ShapeVarSource {
  ir::Var var;
  int param = 0;
  int dim = 0;
};

struct KernelArgs {
  std::vector<ShapeVarSource> shape_vars;
  // Variables the body uses that neither a parameter's data nor a shape defines, in order of
  // first use; they follow the tensors in the argument list.
  std::vector<ir::Var> scalars;
  runtime::FunctionSignature signature;
};

// Errors (InvalidArgument, naming the function and what is wrong): a name that is not a C
// identifier or that starts with the reserved "__tf_", a parameter without a data variable or of
// a type the runtime cannot describe, an extent that is neither a constant nor a variable, two
// distinct variables of one name (the runtime matches symbols by name).
absl::StatusOr<KernelArgs> AnalyzeKernelArgs(const ir::PrimFunc& func);

// The runtime's element type for an IR type (bool is {kDLUInt, 1}).
DLDataType ToDLDataType(ir::DataType t);

}  // namespace tunefarm::codegen
