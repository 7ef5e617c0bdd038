// What a target's CPU offers the templates (vector width, registers, cores, caches): the host's
// detected CpuInfo for `llvm`, and for a cross target what its triple and features imply.
#pragma once

#include "compiler/target/target.h"
#include "compiler/topi/cpu_info.h"

namespace tunefarm::target {

// A `cuda` target gets the host's (the CPU that launches the kernels). Host targets read this
// process's CPUs (its affinity) on every call.
topi::CpuInfo CpuInfoOf(const Target& target);

}  // namespace tunefarm::target
