// StorageFlatten: turns multi-dimensional tensors into flat buffers, the form every later pass
// and code generator works on.
#pragma once

#include "absl/status/statusor.h"
#include "compiler/ir/function.h"

namespace tunefarm::passes {

// BufferRealize(buf, bounds) becomes Allocate(buf->data, dtype, {Π extent}, buf->scope); a
// BufferLoad/BufferStore becomes a Load/Store of buf->data at Σ (idx_i − min_i)·stride_i, with
// row-major strides of the realized region (of the shape, with min 0, for parameters, which are
// never allocated). "produce" attributes stay as annotations.
// Preconditions: pre-flattening IR as ScheduleOps emits it; every non-parameter buffer is
// accessed only inside its BufferRealize (otherwise InvalidArgument).
absl::StatusOr<ir::PrimFunc> StorageFlatten(ir::PrimFunc f);

}  // namespace tunefarm::passes
