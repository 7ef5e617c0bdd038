// The reference interpreter: runs a lowered PrimFunc on NDArrays with the IR's exact semantics
// (compiler/ir/expr.h, stmt.h), bounds-checking every access and emulating GPU blocks, threads,
// shared memory and barriers, so that it can be the oracle every schedule and code generator is
// checked against. Bad programs yield a Status; nothing a program does aborts the process.
//
// Semantics beyond the IR's own:
// - Allocate and BufferRealize storage starts as 0xFF bytes (NaN for floats, -1 for integers),
//   so reading memory nobody wrote shows in the results.
// - Float division by zero follows IEEE; integer division or modulo by zero is an error.
// - Math intrinsics are computed in double and rounded once to float32 (within an ulp of libm).
// - Float to integer casts truncate toward zero, saturate to 64 bits, then wrap to the target
//   width; NaN becomes 0 (C leaves out-of-range casts undefined).
// - Blocks run one after another; within a block, threads run one after another over each stretch
//   of code without a barrier (see thread_scheduler.cc), so a missing barrier changes the result.
// - `local` buffers allocated above a threadIdx launch are copied per thread, as each GPU thread
//   would have its own; `shared` buffers are one per block wherever their Allocate sits.
#pragma once

#include <memory>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "compiler/ir/function.h"
#include "runtime/ndarray.h"

namespace tunefarm::interp {

struct Program;

// A PrimFunc compiled for the interpreter (variables resolved to slots, types to specialized
// code). Immutable: it may be run many times and from several threads at once.
class CompiledFunc {
 public:
  // Fails on IR the interpreter cannot run: free variables, Reduce, float16, unknown thread tags,
  // storage scopes or intrinsics in the wrong place.
  static absl::StatusOr<CompiledFunc> Compile(const ir::PrimFunc& f);

  // Runs the function on `args` (one per parameter, in order; two may be the same array). Shape
  // variables in parameter shapes are bound from the arrays; other dimensions are checked.
  absl::Status Run(const std::vector<runtime::NDArray*>& args) const;

 private:
  explicit CompiledFunc(std::shared_ptr<const Program> program);
  std::shared_ptr<const Program> program_;
};

// Compiles `f` and runs it once on `args`, as CompiledFunc does.
absl::Status Run(const ir::PrimFunc& f, const std::vector<runtime::NDArray*>& args);

}  // namespace tunefarm::interp
