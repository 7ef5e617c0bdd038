// The default CPU schedule of an injective stage (elementwise ops, padding, layout transforms,
// weight packing): leading axes fused into one parallel loop, the last axis split into vectors.
#pragma once

#include <cstdint>
#include <vector>

#include "compiler/schedule/schedule.h"
#include "compiler/topi/cpu_info.h"

namespace tunefarm::topi {

struct InjectiveScheduleConfig {
  int64_t vector_lanes = 8;  // split the last axis by this and vectorize; <= 1: stay scalar
  int64_t unroll = 1;        // >= 2: unroll that many vectors of the last axis
  bool parallel = true;      // fuse all but the last axis into one parallel loop
};

// Vectors of cpu's width; parallel when the tensor is large enough to repay a thread launch.
InjectiveScheduleConfig DefaultInjectiveConfig(const std::vector<int64_t>& shape,
                                               const CpuInfo& cpu);

// Schedules `stage` (an injective compute stage, not yet split) in place; the axes' extents must
// be constants. Returns the outermost loop, the one to compute_at other stages under.
ir::IterVar ScheduleInjectiveStage(schedule::Stage& stage, const InjectiveScheduleConfig& config);

// The constant extent of a stage's original axis (1 when it is not constant).
int64_t AxisExtent(const ir::IterVar& axis);

}  // namespace tunefarm::topi
