// One schedule to one loadable file: lowering and code generation into a shared library (LLVM) or
// a CUDA module (CUDA C, NVRTC), with failures sorted into the tuner's error kinds
// (invalid_config or build_error).
#pragma once

#include <string>

#include "absl/status/statusor.h"
#include "compiler/codegen/llvm/target.h"
#include "compiler/topi/scheduled_op.h"
#include "tuner/record.h"
#include "tuner/target_kind.h"

namespace tunefarm::tuner {

struct BuildOutcome {
  ErrorKind error_kind = ErrorKind::kOk;
  std::string error_message;
};

// A parsed build target: LLVM's for CPUs, the canonical string for CUDA.
struct BuildTarget {
  TargetKind kind = TargetKind::kCpu;
  codegen::Target llvm;  // kCpu
  std::string cuda;      // kCuda: "cuda -arch=sm_90"

  // What the built files are named with: ".so" or ".cuda".
  const char* FileExtension() const { return kind == TargetKind::kCuda ? ".cuda" : ".so"; }
};

// Errors: the target parser's (listing what is accepted), or a cuda target in a build without
// the CUDA toolkit.
absl::StatusOr<BuildTarget> ParseBuildTarget(const std::string& text);

// Lowers `op` to a kernel named `function_name` and writes it for `target` at `path`. A schedule
// whose primitives were misused (its sticky error) is invalid_config, as the config caused it;
// anything else lowering or code generation rejects is build_error. Never touches the task, so
// it may outlive it (a build past its deadline finishes here).
BuildOutcome LowerAndExport(const topi::ScheduledOp& op, const std::string& function_name,
                            const BuildTarget& target, const std::string& path);

}  // namespace tunefarm::tuner
