// CUDA C to PTX with NVRTC, and ptxas -v run on the PTX to report each kernel's registers and
// shared memory (for tests and the tuner, which discards configs that cannot launch).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "compiler/target/cuda_target.h"

namespace tunefarm::codegen::cuda {

// Compiles `source` (named `program` in messages, e.g. "matmul.cu") for target.virtual_arch().
// When NVRTC rejects it: InvalidArgument with NVRTC's log followed by each generated source line
// the log points at, with its number ("line 12: ...").
absl::StatusOr<std::string> CompileToPtx(const std::string& source, const std::string& program,
                                         const target::CudaTarget& target);

struct KernelResources {
  std::string kernel;
  int registers = 0;
  int64_t shared_bytes = 0;  // static shared memory
  int64_t stack_bytes = 0;   // per-thread stack frame (spills, local arrays)
};

// Runs `ptxas -v -arch=<arch>` (arch like "sm_90") on `ptx`; one entry per kernel in PTX order.
// Errors: ptxas missing or rejecting the PTX (its output in the message).
absl::StatusOr<std::vector<KernelResources>> PtxasReport(const std::string& ptx,
                                                         const std::string& arch);

}  // namespace tunefarm::codegen::cuda
