#include "absl/strings/str_cat.h"
#include "compiler/ir/printer.h"
#include "compiler/ir/visitor.h"
#include "compiler/te/tensor.h"

namespace tunefarm::te {
namespace {

std::string DefaultAxisName(size_t i) {
  static const char* kNames[] = {"i", "j", "k", "l"};
  return i < 4 ? kNames[i] : absl::StrCat("ax", i);
}

// A reduction may only be the whole body: anything else has no defined place for its init.
absl::Status CheckReductionPlacement(const ir::Expr& body, const std::string& name) {
  const ir::Expr* top = &body;
  absl::Status status;
  ir::PostOrderVisit(body, [&](const ir::Expr& e) {
    if (!status.ok() || !e.As<ir::ReduceNode>()) return;
    if (!e.same_as(*top)) {
      status = absl::InvalidArgumentError(
          absl::StrCat("compute ", name,
                       ": a reduction must be the whole body (write C = sum(...), then "
                       "another compute for ",
                       ir::ToString(body), ")"));
    }
  });
  if (!status.ok()) return status;
  if (const auto* reduce = body.As<ir::ReduceNode>()) {
    bool nested = false;
    ir::PostOrderVisit(reduce->source, [&](const ir::Expr& e) {
      nested = nested || e.As<ir::ReduceNode>() != nullptr;
    });
    if (nested) {
      return absl::InvalidArgumentError(
          absl::StrCat("compute ", name, ": nested reductions are not supported"));
    }
  }
  return absl::OkStatus();
}

}  // namespace

absl::StatusOr<Tensor> compute(std::vector<ir::Expr> shape, const IndexFn& fn, std::string name) {
  return compute(std::move(shape), fn, std::move(name), {});
}

absl::StatusOr<Tensor> compute(std::vector<ir::Expr> shape, const IndexFn& fn, std::string name,
                               std::vector<std::string> axis_names) {
  std::vector<ir::IterVar> axis;
  std::vector<ir::Var> vars;
  for (size_t i = 0; i < shape.size(); ++i) {
    if (!shape[i].dtype().is_integral()) {
      return absl::InvalidArgumentError(absl::StrCat(
          "compute ", name, ": dimension ", i, " has non-integer extent ", ir::ToString(shape[i])));
    }
    std::string axis_name = i < axis_names.size() ? axis_names[i] : DefaultAxisName(i);
    ir::Var v(axis_name, shape[i].dtype());
    vars.push_back(v);
    axis.emplace_back(ir::Range{ir::MakeZero(shape[i].dtype()), shape[i]}, v,
                      ir::IterVarType::kDataPar);
  }
  ir::Expr body = fn(vars);
  if (!body.defined()) {
    return absl::InvalidArgumentError(absl::StrCat("compute ", name, ": empty body"));
  }
  if (!body.dtype().is_scalar() || body.dtype().is_handle()) {
    return absl::InvalidArgumentError(
        absl::StrCat("compute ", name, ": body has type ", body.dtype().ToString()));
  }
  if (absl::Status st = CheckReductionPlacement(body, name); !st.ok()) return st;
  std::vector<ir::IterVar> reduce_axis;
  if (const auto* reduce = body.As<ir::ReduceNode>()) reduce_axis = reduce->axis;
  auto op = std::make_shared<OperationNode>();
  op->kind = OpKind::kCompute;
  op->name = name;
  op->buffer = ir::Buffer(std::move(name), body.dtype(), std::move(shape), "global",
                          std::weak_ptr<const void>(op));
  op->axis = std::move(axis);
  op->reduce_axis = std::move(reduce_axis);
  op->body = std::move(body);
  return Tensor(op);
}

}  // namespace tunefarm::te
