#include "compiler/te/operation.h"

#include <unordered_set>

#include "compiler/ir/visitor.h"

namespace tunefarm::te {

Operation ProducerOf(const ir::Buffer& buffer) {
  return std::static_pointer_cast<const OperationNode>(buffer->producer.lock());
}

std::vector<Operation> OperationNode::InputOps() const {
  std::vector<Operation> inputs;
  if (!body.defined()) return inputs;
  std::unordered_set<const OperationNode*> seen;
  ir::PostOrderVisit(body, [&](const ir::Expr& e) {
    const auto* load = e.As<ir::BufferLoadNode>();
    if (!load) return;
    Operation op = ProducerOf(load->buffer);
    if (op && seen.insert(op.get()).second) inputs.push_back(std::move(op));
  });
  return inputs;
}

Operation MakeComputeOp(std::string name, ir::Buffer buffer, std::vector<ir::IterVar> axis,
                        std::vector<ir::IterVar> reduce_axis, ir::Expr body) {
  auto op = std::make_shared<OperationNode>();
  op->kind = OpKind::kCompute;
  op->name = std::move(name);
  op->buffer = std::move(buffer);
  op->axis = std::move(axis);
  op->reduce_axis = std::move(reduce_axis);
  op->body = std::move(body);
  return op;
}

Operation NewComputeOp(std::string name, std::string scope, std::vector<ir::IterVar> axis,
                       std::vector<ir::IterVar> reduce_axis, ir::Expr body) {
  std::vector<ir::Expr> shape;
  for (const auto& iv : axis) shape.push_back(iv->dom.extent);
  auto op = std::make_shared<OperationNode>();
  op->kind = OpKind::kCompute;
  op->name = name;
  op->buffer = ir::Buffer(std::move(name), body.dtype(), std::move(shape), std::move(scope),
                          std::weak_ptr<const void>(op));
  op->axis = std::move(axis);
  op->reduce_axis = std::move(reduce_axis);
  op->body = std::move(body);
  return op;
}

}  // namespace tunefarm::te
