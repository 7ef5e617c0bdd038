// The int8 dense template's knobs: the register tile (rows, vectors of lanes), k unrolling and the
// parallel loop, with the constraint that the tile's accumulators fit the vector registers. The
// lanes are the CPU's (the weight's packing depends on them, so they are not a knob).
#pragma once

#include <cstdint>

#include "absl/status/statusor.h"
#include "compiler/space/config_space.h"
#include "compiler/topi/cpu_info.h"
#include "compiler/topi/dense_int8.h"

namespace tunefarm::topi {

absl::Status DefineDenseInt8Knobs(space::ConfigSpace& space, int64_t m, int64_t n, int64_t k,
                                  const CpuInfo& cpu);
absl::StatusOr<DenseInt8Config> DenseInt8ConfigFromKnobs(const space::Config& config,
                                                         const CpuInfo& cpu);
absl::StatusOr<space::Config> DenseInt8KnobsFromConfig(const space::ConfigSpace& space,
                                                       const DenseInt8Config& c);

}  // namespace tunefarm::topi
