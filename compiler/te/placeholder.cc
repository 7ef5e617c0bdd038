#include "compiler/ir/check.h"
#include "compiler/te/tensor.h"

namespace tunefarm::te {

ir::Expr Tensor::operator()(std::vector<ir::Expr> indices) const {
  TF_CHECK(indices.size() == ndim())
      << name() << " indexed with " << indices.size() << " indices, rank " << ndim();
  for (auto& index : indices) {
    TF_CHECK(index.dtype().is_integral() && index.dtype().is_scalar())
        << name() << " indexed with " << index.dtype().ToString();
  }
  return ir::BufferLoadNode::Make(buffer(), std::move(indices));
}

ir::Var var(std::string name, ir::DataType dtype) { return ir::Var(std::move(name), dtype); }

Tensor placeholder(std::vector<ir::Expr> shape, ir::DataType dtype, std::string name) {
  auto op = std::make_shared<OperationNode>();
  op->kind = OpKind::kPlaceholder;
  op->name = name;
  op->buffer =
      ir::Buffer(std::move(name), dtype, std::move(shape), "global", std::weak_ptr<const void>(op));
  return Tensor(op);
}

}  // namespace tunefarm::te
