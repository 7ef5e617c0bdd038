// Message passing over a stage's split/fuse relations: ranges flow from root axes down to
// leaves, index values flow from leaves up to roots, and non-dividing splits leave guards.
#pragma once

#include <unordered_map>
#include <vector>

#include "compiler/ir/mutator.h"
#include "compiler/schedule/schedule.h"

namespace tunefarm::arith {
class Analyzer;
}

namespace tunefarm::schedule {

using RangeMap = std::unordered_map<const ir::IterVarNode*, ir::Range>;
using ValueMap = std::unordered_map<const ir::IterVarNode*, ir::Expr>;

// Given the ranges of the stage's root axes, sets [0, extent) for every derived axis.
void PassDownDomain(const Stage& stage, RangeMap* ranges, arith::Analyzer* analyzer);

// Given values (relative to each axis' min) of the leaf axes, sets the relative values of every
// axis up to the roots.
void PassUpIndex(const Stage& stage, const RangeMap& ranges, ValueMap* values);

// Conditions that must hold for an iteration to be inside the root domains: one per split that
// may not divide evenly (outer * factor + inner < extent), given relative leaf values.
std::vector<ir::Expr> SplitGuards(const Stage& stage, const RangeMap& ranges,
                                  const ValueMap& values, arith::Analyzer* analyzer);

}  // namespace tunefarm::schedule
