// The memory CacheFlush::kWeights evicts before each timed call: a kernel's weights, taken to be
// every tensor argument but the first (its input) and the last (its output). The measure child
// and a session's TimeFunction both time that way.
#pragma once

#include <vector>

#include "runtime/ndarray.h"
#include "runtime/time_evaluator.h"

namespace tunefarm::runtime::measure {

// `tensors`: the kernel's tensor arguments in order.
std::vector<MemoryRegion> WeightRegions(const std::vector<const NDArray*>& tensors);

}  // namespace tunefarm::runtime::measure
