// The caches CacheFlush::kWeights recreates before each timed call, from a kernel's tensor
// arguments: its weights, taken to be every tensor argument but the first (its input) and the
// last (its output), come from memory; its input is cached. The measure child and a session's
// TimeFunction both time that way.
#pragma once

#include <vector>

#include "runtime/cpu_caches.h"
#include "runtime/ndarray.h"

namespace tunefarm::runtime::measure {

// `tensors`: the kernel's tensor arguments in order.
LayerCacheState LayerCacheStateOf(const std::vector<const NDArray*>& tensors);

}  // namespace tunefarm::runtime::measure
