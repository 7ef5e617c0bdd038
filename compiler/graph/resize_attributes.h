// The resize op's attributes read into topi's parameters once, for its inference and compute.
#pragma once

#include "absl/status/statusor.h"
#include "compiler/graph/attributes.h"
#include "compiler/topi/resize.h"

namespace tunefarm::graph {

struct ResizeAttributes {
  topi::ResizeParams params;
};

// Errors name the attribute: an unknown mode, coordinate transformation or rounding.
absl::StatusOr<ResizeAttributes> ReadResize(const Attributes& attrs);

}  // namespace tunefarm::graph
