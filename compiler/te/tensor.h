// Tensor: the output of an operation, and the functions that declare computations
// (placeholder, compute, reduce_axis, sum/max/min, if_then_else) with the te API's names.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "compiler/te/operation.h"

namespace tunefarm::te {

class Tensor {
 public:
  Tensor() = default;
  explicit Tensor(Operation op) : op_(std::move(op)) {}

  bool defined() const { return op_ != nullptr; }
  const Operation& op() const { return op_; }
  const ir::Buffer& buffer() const { return op_->buffer; }
  const std::string& name() const { return op_->name; }
  const std::vector<ir::Expr>& shape() const { return op_->shape(); }
  ir::DataType dtype() const { return op_->dtype(); }
  size_t ndim() const { return op_->shape().size(); }
  // A read of one element; the index count must equal ndim (callers check user input first).
  ir::Expr operator()(std::vector<ir::Expr> indices) const;
  bool same_as(const Tensor& other) const { return op_ == other.op_; }

 private:
  Operation op_;
};

ir::Var var(std::string name, ir::DataType dtype = ir::DataType::Int(32));

Tensor placeholder(std::vector<ir::Expr> shape, ir::DataType dtype, std::string name);

// One index variable per dimension, as the lambda of `compute` receives them.
using IndexFn = std::function<ir::Expr(const std::vector<ir::Var>&)>;

// Declares out[i...] = fn(i...). A reduction must be the whole body (sum(...), not sum(...) + 1),
// as in TVM; other misuses are InvalidArgument errors naming the tensor.
absl::StatusOr<Tensor> compute(std::vector<ir::Expr> shape, const IndexFn& fn, std::string name);
// The same with explicit axis names (default i, j, k, l, then axN).
absl::StatusOr<Tensor> compute(std::vector<ir::Expr> shape, const IndexFn& fn, std::string name,
                               std::vector<std::string> axis_names);

ir::IterVar reduce_axis(ir::Range dom, std::string name);
// A GPU thread, block or virtual-thread axis; `dom` may be undefined (taken from the bound axis).
ir::IterVar thread_axis(ir::Range dom, std::string tag, std::string name = "");

// Reductions over `axis`, restricted to `where` when defined.
ir::Expr sum(ir::Expr source, std::vector<ir::IterVar> axis, ir::Expr where = ir::Expr());
ir::Expr max(ir::Expr source, std::vector<ir::IterVar> axis, ir::Expr where = ir::Expr());
ir::Expr prod(ir::Expr source, std::vector<ir::IterVar> axis, ir::Expr where = ir::Expr());
ir::Expr min(ir::Expr source, std::vector<ir::IterVar> axis, ir::Expr where = ir::Expr());

}  // namespace tunefarm::te
