// Operations of the tensor-expression language: a placeholder (an input) or a compute (an
// element-wise definition over an index domain, optionally a reduction). Each has one output.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "compiler/ir/expr.h"

namespace tunefarm::te {

enum class OpKind : uint8_t { kPlaceholder, kCompute };

struct OperationNode;
using Operation = std::shared_ptr<const OperationNode>;

struct OperationNode {
  OpKind kind = OpKind::kPlaceholder;
  std::string name;
  ir::Buffer buffer;  // the output's storage; its shape and dtype are the op's
  // Compute only: one data-parallel axis per output dimension, the reduction axes (if the body
  // is a Reduce), and the body, written over the axis variables.
  std::vector<ir::IterVar> axis;
  std::vector<ir::IterVar> reduce_axis;
  ir::Expr body;

  const std::vector<ir::Expr>& shape() const { return buffer->shape; }
  ir::DataType dtype() const { return buffer->dtype; }
  // The operations whose outputs the body reads, each once, in order of first read.
  std::vector<Operation> InputOps() const;
};

// The operation that produces `buffer`, or null when it has none (or it was released).
Operation ProducerOf(const ir::Buffer& buffer);

// Makes a compute op that writes into an existing buffer (schedules rebuild ops this way so that
// a tensor keeps its identity when its definition is rewritten).
Operation MakeComputeOp(std::string name, ir::Buffer buffer, std::vector<ir::IterVar> axis,
                        std::vector<ir::IterVar> reduce_axis, ir::Expr body);

// Makes a compute op with a fresh buffer of its own in `scope` (cache stages are made this way).
Operation NewComputeOp(std::string name, std::string scope, std::vector<ir::IterVar> axis,
                       std::vector<ir::IterVar> reduce_axis, ir::Expr body);

}  // namespace tunefarm::te
