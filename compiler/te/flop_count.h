// The arithmetic work of a computation, counted from its definition (not from a schedule): each
// arithmetic operation of a compute body times the size of its iteration domain. This is the
// FLOP count behind every GFLOPS number tunefarm prints.
#pragma once

#include <vector>

#include "absl/status/statusor.h"
#include "compiler/ir/mutator.h"
#include "compiler/te/tensor.h"

namespace tunefarm::te {

// Counts every compute stage that `outputs` depend on. Counted per element: + - * / % floordiv
// floormod min max, math calls (exp, log, sqrt, tanh, sigmoid, fabs, pow, floor, ceil) and, for a
// reduction, its combiner once per reduced element. Index arithmetic, comparisons, selects and
// casts are not work. `values` binds the symbolic extents; an extent that stays symbolic is an
// InvalidArgument error naming the stage.
absl::StatusOr<double> CountFlops(const std::vector<Tensor>& outputs, const ir::VarMap& values);

}  // namespace tunefarm::te
