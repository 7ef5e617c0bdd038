#include "compiler/schedule/tensor_intrin.h"

#include "absl/strings/str_cat.h"
#include "compiler/ir/printer.h"

namespace tunefarm::schedule {
namespace {

std::vector<ir::Expr> VectorIndex(const TensorRegion& r, int lanes) {
  std::vector<ir::Expr> index = r.origin;
  if (lanes > 1 && !index.empty()) {
    ir::Expr& last = index.back();
    last = ir::RampNode::Make(last, ir::MakeConst(last.dtype(), 1), lanes);
  }
  return index;
}

bool ConstantShape(const std::vector<ir::Expr>& shape) {
  for (const ir::Expr& e : shape) {
    if (!ir::AsConstInt(e)) return false;
  }
  return true;
}

}  // namespace

ir::Expr TensorRegion::Load(int lanes) const {
  return ir::BufferLoadNode::Make(buffer, VectorIndex(*this, lanes));
}

ir::Stmt TensorRegion::Store(ir::Expr value) const {
  const int lanes = value.dtype().lanes();
  return ir::BufferStoreNode::Make(buffer, std::move(value), VectorIndex(*this, lanes));
}

absl::StatusOr<TensorIntrin> DeclareTensorIntrin(std::string name, const te::Tensor& output,
                                                 std::vector<te::Tensor> inputs,
                                                 std::vector<bool> dense_inputs, bool dense_output,
                                                 TensorIntrinEmitter emit) {
  auto fail = [&](const std::string& why) {
    return absl::InvalidArgumentError(absl::StrCat("tensor intrinsic ", name, ": ", why));
  };
  if (!output.defined() || output.op()->kind != te::OpKind::kCompute) {
    return fail("its output must be a compute");
  }
  if (dense_inputs.size() != inputs.size()) {
    return fail(absl::StrCat(inputs.size(), " inputs but ", dense_inputs.size(), " dense flags"));
  }
  if (!emit) return fail("no emitter");
  const std::vector<te::Operation> read = output.op()->InputOps();
  for (const te::Tensor& t : inputs) {
    if (!t.defined() || t.op()->kind != te::OpKind::kPlaceholder) {
      return fail("its inputs must be placeholders");
    }
    if (!ConstantShape(t.shape())) return fail(absl::StrCat(t.name(), "'s shape is not constant"));
    bool found = false;
    for (const te::Operation& op : read) found = found || op == t.op();
    if (!found) return fail(absl::StrCat("its computation does not read ", t.name()));
  }
  if (read.size() != inputs.size()) {
    return fail(absl::StrCat("its computation reads ", read.size(), " tensors but ", inputs.size(),
                             " are declared as inputs"));
  }
  if (!ConstantShape(output.shape())) return fail("its output's shape is not constant");
  for (const ir::IterVar& iv : output.op()->reduce_axis) {
    if (!ir::AsConstInt(iv->dom.extent) || !ir::IsConstInt(iv->dom.min, 0)) {
      return fail(absl::StrCat("reduction axis ", iv->var.name(), " is not [0, constant)"));
    }
  }
  auto node = std::make_shared<TensorIntrinNode>();
  node->name = std::move(name);
  node->op = output.op();
  node->inputs = std::move(inputs);
  node->dense_inputs = std::move(dense_inputs);
  node->dense_output = dense_output;
  node->emit = std::move(emit);
  return TensorIntrin(std::move(node));
}

}  // namespace tunefarm::schedule
