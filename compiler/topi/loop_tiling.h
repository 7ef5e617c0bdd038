// Loop-tiling steps the CPU schedule templates share: split by a constant, split into unrolled
// whole vectors, fuse a run of axes into one loop, and ordering with optional axes.
#pragma once

#include <cstdint>
#include <utility>
#include <vector>

#include "compiler/schedule/schedule.h"

namespace tunefarm::topi {

// Splits `axis` by a constant factor; returns the outer axis and sets *inner.
ir::IterVar SplitBy(schedule::Stage& s, const ir::IterVar& axis, int64_t factor,
                    ir::IterVar* inner);

// Splits `cols` into vectors of `lanes`: the vector loop unrolled, the lanes vectorized (or, with
// vectorize false, unrolled too). Returns {vectors, lanes}.
std::pair<ir::IterVar, ir::IterVar> SplitVectors(schedule::Stage& s, const ir::IterVar& cols,
                                                 int64_t lanes, bool vectorize = true);

// Fuses adjacent leaf axes (outermost first; undefined ones skipped) into one, marked parallel
// when `parallel`. Returns the fused axis.
ir::IterVar FuseOuter(schedule::Stage& s, const std::vector<ir::IterVar>& axes, bool parallel);

// reorder() over the defined axes of `axes`.
void Reorder(schedule::Stage& s, const std::vector<ir::IterVar>& axes);

// Rounds x up to a multiple of `unit`.
inline int64_t RoundUpTo(int64_t x, int64_t unit) { return (x + unit - 1) / unit * unit; }

}  // namespace tunefarm::topi
