#include "compiler/ir/check.h"
#include "compiler/ir/op.h"
#include "compiler/te/tensor.h"

namespace tunefarm::te {
namespace {

ir::Expr MakeReduction(const char* name, ir::Expr source, std::vector<ir::IterVar> axis,
                       ir::Expr where, ir::Expr (*combine)(ir::Expr, ir::Expr), ir::Expr identity) {
  ir::DataType t = source.dtype();
  ir::Var lhs("x", t), rhs("y", t);
  auto combiner = ir::MakeCommReducer(name, lhs, rhs, combine(lhs, rhs), std::move(identity));
  return ir::ReduceNode::Make(std::move(combiner), std::move(source), std::move(axis),
                              std::move(where));
}

ir::Expr Plus(ir::Expr a, ir::Expr b) { return std::move(a) + std::move(b); }
ir::Expr Times(ir::Expr a, ir::Expr b) { return std::move(a) * std::move(b); }
ir::Expr Maximum(ir::Expr a, ir::Expr b) { return ir::Max(std::move(a), std::move(b)); }
ir::Expr Minimum(ir::Expr a, ir::Expr b) { return ir::Min(std::move(a), std::move(b)); }

}  // namespace

ir::IterVar reduce_axis(ir::Range dom, std::string name) {
  ir::DataType t = dom.extent.dtype();
  return ir::IterVar(std::move(dom), ir::Var(std::move(name), t), ir::IterVarType::kCommReduce);
}

ir::IterVar thread_axis(ir::Range dom, std::string tag, std::string name) {
  if (name.empty()) name = tag;
  return ir::IterVar(std::move(dom), ir::Var(std::move(name)), ir::IterVarType::kThreadIndex,
                     std::move(tag));
}

ir::Expr sum(ir::Expr source, std::vector<ir::IterVar> axis, ir::Expr where) {
  ir::Expr zero = ir::MakeZero(source.dtype());
  return MakeReduction("sum", std::move(source), std::move(axis), std::move(where), Plus, zero);
}

ir::Expr prod(ir::Expr source, std::vector<ir::IterVar> axis, ir::Expr where) {
  ir::Expr one = ir::MakeConst(source.dtype(), 1);
  return MakeReduction("prod", std::move(source), std::move(axis), std::move(where), Times, one);
}

ir::Expr max(ir::Expr source, std::vector<ir::IterVar> axis, ir::Expr where) {
  ir::Expr lowest = ir::MinValue(source.dtype());
  return MakeReduction("max", std::move(source), std::move(axis), std::move(where), Maximum,
                       lowest);
}

ir::Expr min(ir::Expr source, std::vector<ir::IterVar> axis, ir::Expr where) {
  ir::Expr highest = ir::MaxValue(source.dtype());
  return MakeReduction("min", std::move(source), std::move(axis), std::move(where), Minimum,
                       highest);
}

}  // namespace tunefarm::te
