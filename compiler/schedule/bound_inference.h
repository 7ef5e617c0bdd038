// InferBound: the range of every axis of every stage. A root axis gets the region its consumers
// read, relative to the loops that enclose the stage (its attach path); derived axes get
// [0, extent). Shared buffers are relaxed over threads, global ones over blocks too.
#pragma once

#include "absl/status/statusor.h"
#include "compiler/schedule/message_passing.h"
#include "compiler/schedule/schedule_graph.h"

namespace tunefarm::schedule {

// `analyzer` learns the range of every leaf axis, so later simplification can use them.
absl::StatusOr<RangeMap> InferBound(const ScheduleGraph& graph, arith::Analyzer* analyzer);

}  // namespace tunefarm::schedule
