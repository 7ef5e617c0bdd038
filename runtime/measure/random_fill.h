// Seeded pseudo-random contents for kernel arguments, the same on every machine (splitmix64, no
// standard-library distributions), so a runner, a worker and `tunefarm run` agree on inputs.
#pragma once

#include <cstdint>

#include "runtime/ndarray.h"

namespace tunefarm::runtime::measure {

// Floats uniform in [-1, 1), signed integers in [-4, 4], unsigned in [0, 8], bools 0/1. The
// array's dtype must satisfy ElementTypeSupported (element_access.h).
void FillSeededRandom(NDArray& array, uint64_t seed);

}  // namespace tunefarm::runtime::measure
