// VectorizeLoops: turns vectorized loops into straight-line vector code (Ramp indices, vector
// Loads and Stores) that code generators map onto SIMD instructions.
#pragma once

#include "absl/status/statusor.h"
#include "compiler/ir/function.h"

namespace tunefarm::passes {

// A kVectorized For with constant extent L becomes its body with the loop variable replaced by
// Ramp(min, 1, L): scalar operands are broadcast, Loads and Stores take vector indices, lets
// bind vector values. Inner loops go first, so in a nest the innermost vectorized loop wins.
// Correct first, fast second: a body that cannot be vectorized — it holds a loop, an
// allocation, a barrier, a branch or if_then_else whose condition varies across lanes, a store
// to an index that does not (a reduction), or values that are already vectors — stays a serial
// loop, as does a loop whose extent is not constant.
// Preconditions: flattened IR (Load/Store, after storage_flatten).
absl::StatusOr<ir::PrimFunc> VectorizeLoops(ir::PrimFunc f);

}  // namespace tunefarm::passes
