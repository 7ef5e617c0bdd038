// A tensor intrinsic: a hardware operation declared as a small TE computation, plus how to emit
// it over the regions of real tensors that Stage::tensorize matched to its inputs and output.
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "compiler/ir/stmt.h"
#include "compiler/te/tensor.h"

namespace tunefarm::schedule {

// The part of a real tensor that one intrinsic operand covers: `origin` indexes its first
// element in every dimension of `buffer`.
struct TensorRegion {
  ir::Buffer buffer;
  std::vector<ir::Expr> origin;

  // `lanes` consecutive elements from the origin on, in the buffer's row-major order (a vector
  // index in the last dimension): the region's elements when its intrinsic asked for it dense.
  ir::Expr Load(int lanes) const;
  ir::Stmt Store(ir::Expr value) const;
};

using TensorIntrinEmitter =
    std::function<ir::Stmt(const std::vector<TensorRegion>& inputs, const TensorRegion& output)>;

struct TensorIntrinNode {
  std::string name;
  te::Operation op;                // the declared computation, over constant shapes
  std::vector<te::Tensor> inputs;  // placeholders, in the order the emitter receives them
  std::vector<bool> dense_inputs;  // an input the emitter reads as one contiguous block
  bool dense_output = false;
  // Does `op` on the regions; for a reduction, adds to `output` (the stage initialises it).
  TensorIntrinEmitter emit;
};
using TensorIntrin = std::shared_ptr<const TensorIntrinNode>;

// Checks and wraps a declaration: `output` must be a compute over exactly the placeholders
// `inputs` (each read, none other), with constant shapes and extents.
absl::StatusOr<TensorIntrin> DeclareTensorIntrin(std::string name, const te::Tensor& output,
                                                 std::vector<te::Tensor> inputs,
                                                 std::vector<bool> dense_inputs, bool dense_output,
                                                 TensorIntrinEmitter emit);

}  // namespace tunefarm::schedule
