// Knob features: a config's knob values as a fixed-length float vector for its space — split
// factors as log2, permutation entries, annotation and choice indices — the cheap features the
// model-based search scores thousands of candidates with.
#pragma once

#include <vector>

#include "compiler/space/config.h"
#include "compiler/space/config_space.h"

namespace tunefarm::tuner {

// Floats per knob: a split's parts, a reorder's axes, 1 for an annotation (its index), 2 for a
// choice (its index, then log2(1 + v) of an integer value, 0 for a string).
int KnobFeatureLength(const space::ConfigSpace& space);

// KnobFeatureLength(config.space()) floats, knobs in definition order.
std::vector<float> KnobFeatureVector(const space::Config& config);

// The same, appended to `out` (lets callers concatenate without copying).
void AppendKnobFeatures(const space::Config& config, std::vector<float>& out);

}  // namespace tunefarm::tuner
