// One schedule to one loadable file: lowering and code generation into a shared library (LLVM) or
// a GPU module (CUDA C and NVRTC, or OpenCL C), with failures sorted into the tuner's error kinds
// (invalid_config or build_error).
#pragma once

#include <string>

#include "absl/status/statusor.h"
#include "compiler/target/target.h"
#include "compiler/topi/scheduled_op.h"
#include "tuner/record.h"

namespace tunefarm::tuner {

struct BuildOutcome {
  ErrorKind error_kind = ErrorKind::kOk;
  std::string error_message;
};

// Lowers `op` to a kernel named `function_name` and writes it for `target` at `path`. A schedule
// whose primitives were misused (its sticky error) is invalid_config, as the config caused it;
// anything else lowering or code generation rejects is build_error. Never touches the task, so
// it may outlive it (a build past its deadline finishes here).
BuildOutcome LowerAndExport(const topi::ScheduledOp& op, const std::string& function_name,
                            const target::Target& target, const std::string& path);

}  // namespace tunefarm::tuner
