// The int8 conv2d template's knobs: the register tile's output columns (each one accumulator
// vector, with the weight vector and a broadcast input beside them in the registers) and the
// parallel loop. The blocks are the layout's (the kernel's packing depends on them), not knobs.
#pragma once

#include <cstdint>

#include "absl/status/statusor.h"
#include "compiler/space/config_space.h"
#include "compiler/topi/conv2d_int8.h"
#include "compiler/topi/cpu_info.h"

namespace tunefarm::topi {

absl::Status DefineConv2dInt8Knobs(space::ConfigSpace& space, const Conv2dInt8Tensors& t,
                                   const CpuInfo& cpu);
absl::StatusOr<Conv2dInt8Config> Conv2dInt8ConfigFromKnobs(const space::Config& config);
absl::StatusOr<space::Config> Conv2dInt8KnobsFromConfig(const space::ConfigSpace& space,
                                                        const Conv2dInt8Config& c);

}  // namespace tunefarm::topi
