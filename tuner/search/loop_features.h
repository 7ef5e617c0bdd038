// Loop features: the loop-nest facts of a lowered function (loop_nest.h) as a fixed-length float
// vector for the cost model — the most expensive nests, log2(1 + x) scaled, zero padded.
#pragma once

#include <vector>

#include "compiler/ir/function.h"
#include "tuner/search/loop_nest.h"

namespace tunefarm::tuner {

struct LoopFeatureOptions {
  int max_nests = 3;     // most expensive nests kept
  int max_loops = 6;     // innermost loops kept per nest
  int max_accesses = 4;  // accesses kept per nest (stores first)
};

// Slot sizes of the vector, in floats. Layout, per nest slot:
//   header:  present, iterations, cost, float_add, float_mul, float_fma, float_other, int_ops,
//            loops, accesses
//   per loop slot (innermost first): extent, depth, kind one-hot (serial, parallel, vectorized,
//            unrolled, thread-bound), prod_above, prod_below
//   per access slot: is_store, is_load, element_bytes, lanes, count, then per loop level:
//            stride (signed), touched_bytes, reuse
// Counts and sizes are log2(1 + x); a stride s is sign(s) * log2(1 + |s|); flags are 0 or 1.
inline constexpr int kNestHeaderFeatures = 10;
inline constexpr int kLoopSlotFeatures = 9;
inline constexpr int kAccessFixedFeatures = 5;
inline constexpr int kAccessLevelFeatures = 3;

int LoopFeatureLength(const LoopFeatureOptions& options);

// The vector of `nests` (as AnalyzeLoopNests orders them), LoopFeatureLength(options) long.
std::vector<float> LoopFeatureVector(const std::vector<LoopNest>& nests,
                                     const LoopFeatureOptions& options);

inline std::vector<float> ExtractLoopFeatures(const ir::PrimFunc& func,
                                              const LoopFeatureOptions& options) {
  return LoopFeatureVector(AnalyzeLoopNests(func), options);
}

// log2(1 + x) for x >= 0, and sign(x) * log2(1 + |x|) otherwise: the scaling of every feature.
float LogScale(double x);

}  // namespace tunefarm::tuner
