// ThreadSync: inserts the barriers (sync_threads) that make threads of a block see each other's
// writes to shared memory, where the loop nest ScheduleOps emits assumes they do.
#pragma once

#include "absl/status/statusor.h"
#include "compiler/ir/function.h"

namespace tunefarm::passes {

// Walks each kernel in execution order, tracking which shared buffers were written and read
// since the last barrier (at buffer granularity, so conservative), and puts
// `Evaluate(sync_threads())` before a statement that reads a buffer written since (RAW) or
// writes one read since (WAR). A loop body is planned as if what it touches were still pending
// from the previous iteration, so a hazard carried to the next iteration gets a barrier at the top
// of the body (`for k { fill; sync; use }` gets one before `fill`), and a loop without one, none.
// Barriers go only where every thread of the block arrives: inside a threadIdx region, in a
// sequence or loop body not under a branch or loop whose condition or bounds vary across threads
// (such a branch or loop is one unit, with barriers before and after it as needed). A barrier
// is put before the outermost statement that needs it, never inside a loop that does not.
// Preconditions: flattened IR; virtual threads injected (inject_virtual_thread).
absl::StatusOr<ir::PrimFunc> ThreadSync(ir::PrimFunc f);

}  // namespace tunefarm::passes
