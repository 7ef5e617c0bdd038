// ScheduleOps: the loop nest of a whole schedule, in pre-flattening form — a BufferRealize per
// intermediate tensor, `produce` attributes, For loops and thread_extent/virtual_thread
// attributes per leaf axis, likely() guards where splits do not divide, BufferStores.
#pragma once

#include <unordered_set>

#include "absl/status/statusor.h"
#include "compiler/schedule/message_passing.h"
#include "compiler/schedule/schedule_graph.h"

namespace tunefarm::schedule {

// `params` are the buffers of the function's arguments: they are never realized. Errors: an
// axis vectorized with a non-constant extent, a thread axis bound twice with extents that
// cannot fit, a thread-bound axis inside a reduction axis.
absl::StatusOr<ir::Stmt> ScheduleOps(const ScheduleGraph& graph, const RangeMap& ranges,
                                     const std::unordered_set<const ir::BufferNode*>& params,
                                     arith::Analyzer* analyzer);

}  // namespace tunefarm::schedule
