// Lower: a schedule and its argument tensors become a PrimFunc — bound inference, the loop nest,
// then the pass pipeline (pipeline.cc). The one entry the tools and the tuner call.
#pragma once

#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "compiler/ir/function.h"
#include "compiler/passes/pass.h"
#include "compiler/schedule/schedule.h"

namespace tunefarm::passes {

// Errors: the schedule's sticky error, a misuse found only with bounds known (e.g. vectorizing an
// axis whose extent is symbolic), a placeholder that the computation reads but `args` omits.
absl::StatusOr<ir::PrimFunc> Lower(const schedule::Schedule& schedule,
                                   const std::vector<te::Tensor>& args, const std::string& name,
                                   const PassOptions& options = PassOptions());

// The loop nest before any pass runs (BufferRealize / BufferStore form), for tests and dumps.
absl::StatusOr<ir::PrimFunc> LowerToLoopNest(const schedule::Schedule& schedule,
                                             const std::vector<te::Tensor>& args,
                                             const std::string& name);

}  // namespace tunefarm::passes
