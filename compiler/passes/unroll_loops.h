// UnrollLoops: expands loops the schedule marked unrolled into straight-line copies of the body,
// so later simplification can fold the now-constant indices.
#pragma once

#include "absl/status/statusor.h"
#include "compiler/ir/function.h"

namespace tunefarm::passes {

// A kUnrolled For with constant extent n becomes n copies of its body, the loop variable replaced
// by min + 0, ..., min + n - 1 (inner loops first). A kUnrolled loop with a non-constant extent
// stays a serial loop, with a debug note. Small loops are not unrolled unless marked.
// Preconditions: none (works before or after flattening).
absl::StatusOr<ir::PrimFunc> UnrollLoops(ir::PrimFunc f);

}  // namespace tunefarm::passes
