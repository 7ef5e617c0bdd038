// SkipPaddingTaps: a window operator with padding inlined multiplies the padded zeros like real
// data; this pass drops that work, as hand-written convolutions (oneDNN's) skip padded taps.
#pragma once

#include "absl/status/statusor.h"
#include "compiler/ir/function.h"

namespace tunefarm::passes {

// An accumulation is `A[i] = A[i] + t*y` (or `y*t`, or with the sum's operands swapped) where `t`
// is a zero constant or `if_then_else(c, x, 0)`, scalar or broadcast to the vector's lanes.
// - A serial loop over register tiles whose guards hold on a run of its iterations but not on
//   the first or last (at most 2 of them, extent at most 256) is peeled: the border tiles become
//   copies with the loop variable known, the loop in between runs without those guards. Bodies
//   with thread launches or shared allocations are not copied, nor past 1024 stores.
// - Accumulations of a zero product are removed: unrolling and peeling leave them where a padded
//   row or column is known at compile time.
// - A loop whose statements are all guarded accumulations runs under the conjuncts of `c` they
//   share, where those do not use the loop's variable or read memory: `if (r) for (...)`, each
//   statement keeping the rest of its guard. Such branches are then hoisted out of the enclosing
//   loops they do not depend on (never out of a thread-bound loop), and neighbouring branches on
//   the same condition merge, so the padding check runs once per kernel row, not per product.
// Skipping `0*y` differs from computing it only where y is infinite or NaN (the product would be
// NaN), or in the sign of a zero sum. A hoisted guard is evaluated even where the loop runs no
// iteration; guards are index arithmetic (no loads, no calls), so that is harmless unless one
// divides by zero, which is undefined anyway.
// Preconditions: flattened IR, after unrolling and simplification (constant guards folded).
absl::StatusOr<ir::PrimFunc> SkipPaddingTaps(ir::PrimFunc f);

}  // namespace tunefarm::passes
