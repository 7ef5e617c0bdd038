// Verify: the IR invariants the pass runner checks after every pass, so a pass that breaks the
// IR is named at once instead of surfacing later as a wrong answer or a codegen crash.
#pragma once

#include "absl/status/status.h"
#include "compiler/ir/function.h"

namespace tunefarm::passes {

// Checks that
// - every variable used is defined: a loop variable, a let, the IterVar of an enclosing
//   thread_extent / virtual_thread attribute, or a free variable of a parameter's shape;
// - every Load/Store names a parameter's data variable or an enclosing Allocate, with the
//   buffer's element type; every BufferLoad/BufferStore names a parameter or an enclosing
//   BufferRealize;
// - sync_threads() appears only as a whole Evaluate statement;
// - with `flattened`, no BufferLoad, BufferStore or BufferRealize remains.
// Returns Internal with the first violation found.
absl::Status VerifyPrimFunc(const ir::PrimFunc& f, bool flattened);

}  // namespace tunefarm::passes
