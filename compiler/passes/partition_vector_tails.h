// PartitionVectorTails: splits a vectorized loop whose body is guarded by a split's tail check
// into a guard-free vector loop for full iterations and a guarded serial loop for the tail.
#pragma once

#include "absl/status/statusor.h"
#include "compiler/ir/function.h"

namespace tunefarm::passes {

// A kVectorized For(v, min, L) whose body is `if (likely(c)) S` (no else), where c only becomes
// false as v grows (each conjunct a comparison whose sides drift apart monotonically in v),
// becomes `if (likely(c[v = min + L - 1])) { vectorized loop over S } else { serial loop over
// the original guarded body }`: when the last lane passes the guard every lane does, so the
// vector loop needs no per-lane branch. Other loops are left as they are.
// Preconditions: flattened IR; runs before vectorize_loops.
absl::StatusOr<ir::PrimFunc> PartitionVectorTails(ir::PrimFunc f);

}  // namespace tunefarm::passes
