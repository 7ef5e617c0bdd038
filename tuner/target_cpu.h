// What a tuning target's CPU offers the templates (vector width, registers, cores, caches): the
// host's detected CpuInfo for `llvm`, and for a cross target what its triple and features imply.
#pragma once

#include <string>

#include "absl/status/statusor.h"
#include "compiler/topi/cpu_info.h"

namespace tunefarm::tuner {

// Errors: a target string codegen::ParseTarget rejects (its message, which lists what is
// accepted). A `cuda` target gets the host's (the CPU that launches the kernels).
absl::StatusOr<topi::CpuInfo> CpuInfoForTarget(const std::string& target);

// The canonical form of a target string, as records are keyed by it ("cuda -arch=sm_90" for
// `cuda`).
absl::StatusOr<std::string> CanonicalTarget(const std::string& target);

}  // namespace tunefarm::tuner
