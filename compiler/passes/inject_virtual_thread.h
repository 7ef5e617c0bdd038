// InjectVirtualThread: replaces virtual_thread attributes (vthread / cthread) by serial loops
// over the virtual thread, placed so the virtual threads still interleave at barriers.
#pragma once

#include "absl/status/statusor.h"
#include "compiler/ir/function.h"

namespace tunefarm::passes {

// For `virtual_thread(v, V) { body }` (inner attributes first):
// - Statements the virtual threads may interleave around — those reaching a `shared` buffer —
//   are descended into; everything else is wrapped whole, `for (v, 0, V) { s }` (unrolled when
//   V is a constant ≤ 16). Barriers come later (thread_sync), so shared memory stands in for them.
// - A statement that does not use v is emitted once, unless it reads a buffer it also writes
//   (rerunning it V times would then differ), in which case it is wrapped too.
// - A SeqStmt is split per child. A For, AttrStmt, IfThenElse or Allocate whose header does not
//   use v and whose body reaches shared memory is kept once, with the rule applied to its body;
//   a LetStmt likewise, its value inlined into the body when it uses v.
// - A non-shared Allocate descended into becomes private per virtual thread: V times the
//   elements, every access offset by v·size. (Shared buffers are one per block and stay one.)
// A statement that reaches shared memory but whose header uses v is wrapped whole, which
// serializes the virtual threads across it (logged as a warning).
// Preconditions: flattened IR (after storage_flatten); no barriers yet (before thread_sync).
absl::StatusOr<ir::PrimFunc> InjectVirtualThread(ir::PrimFunc f);

}  // namespace tunefarm::passes
