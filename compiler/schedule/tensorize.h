// Lowering a tensorized stage: matches the loops from the tensorized leaf inward against the
// intrinsic's declared computation and returns the intrinsic's emission over the matched regions.
#pragma once

#include <cstddef>

#include "absl/status/statusor.h"
#include "compiler/ir/stmt.h"
#include "compiler/schedule/message_passing.h"
#include "compiler/schedule/schedule.h"

namespace tunefarm::schedule {

// `body` is the stage's definition (inlined producers substituted); `values` hold the loop
// values of the leaves outside `leaf` (the loops that stay). Errors name the stage, the
// intrinsic and the first thing that differs.
absl::StatusOr<ir::Stmt> TensorizeLoops(const Stage& stage, const ir::Expr& body, size_t leaf,
                                        const RangeMap& ranges, ValueMap values,
                                        arith::Analyzer* analyzer);

}  // namespace tunefarm::schedule
