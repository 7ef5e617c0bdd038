// The lowering pipeline: THE ordered list of passes that takes ScheduleOps' loop nest to the IR
// code generators and the interpreter take. Lower (lower.h) runs it with RunPasses.
#pragma once

#include <vector>

#include "absl/status/statusor.h"
#include "compiler/passes/pass.h"

namespace tunefarm::passes {

// storage_flatten → partition_vector_tails → vectorize_loops → inject_virtual_thread →
// unroll_loops → thread_sync → simplify → skip_padding_taps → remove_no_op. thread_sync is enabled
// only for targets that run thread blocks (every target but "llvm").
std::vector<Pass> LoweringPipeline();

// The same list with `extra` passes inserted at the insertion point their phase names:
// kPhaseAfterFlatten (right after storage_flatten) or kPhaseBeforeCodegen (at the end), in the
// order given. Any other phase is InvalidArgument.
absl::StatusOr<std::vector<Pass>> LoweringPipeline(std::vector<Pass> extra);

}  // namespace tunefarm::passes
