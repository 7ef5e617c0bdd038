// The expression rewriter behind Simplify (internal to tf_arith; use simplify.h): a bottom-up
// mutator whose per-node rules live in one file per node family (rules_*.cc). Each rule takes
// operands that are already simplified and returns a simplified expression.
#pragma once

#include <optional>
#include <utility>

#include "compiler/ir/arith/analyzer.h"
#include "compiler/ir/mutator.h"
#include "compiler/ir/simplify/linear_sum.h"

namespace tunefarm::arith {

class Rewriter : public ir::Mutator {
 public:
  explicit Rewriter(Analyzer* analyzer) : analyzer_(analyzer) {}

  // Any binary node kind: folds constants, lifts vector forms, then applies the kind's rules.
  ir::Expr Binary(ir::ExprKind kind, const ir::Expr& a, const ir::Expr& b);

  // rules_add_sub.cc
  ir::Expr AddRule(const ir::Expr& a, const ir::Expr& b);
  ir::Expr SubRule(const ir::Expr& a, const ir::Expr& b);
  // The canonical form of a + sign*b for linear types.
  ir::Expr Linear(const ir::Expr& a, const ir::Expr& b, int64_t sign);
  // rules_mul_div_mod.cc
  ir::Expr MulRule(const ir::Expr& a, const ir::Expr& b);
  ir::Expr DivRule(ir::ExprKind kind, const ir::Expr& a, const ir::Expr& b);  // kDiv, kFloorDiv
  ir::Expr ModRule(ir::ExprKind kind, const ir::Expr& a, const ir::Expr& b);  // kMod, kFloorMod
  // Modulo of a linear sum by a positive constant c (b), where a >= 0 for truncating modulo.
  ir::Expr ModOfSum(ir::ExprKind kind, const ir::Expr& a, const ir::Expr& b);
  // rules_min_max.cc
  ir::Expr MinMaxRule(ir::ExprKind kind, const ir::Expr& a, const ir::Expr& b);
  // -1 when a <= b is proven, 1 when a >= b is proven, 0 otherwise (integer operands).
  int ProveOrder(const ir::Expr& a, const ir::Expr& b);
  // rules_compare.cc
  ir::Expr CompareRule(ir::ExprKind kind, const ir::Expr& a, const ir::Expr& b);
  // rules_logic.cc
  ir::Expr AndOrRule(ir::ExprKind kind, const ir::Expr& a, const ir::Expr& b);
  ir::Expr NotRule(const ir::Expr& a);
  ir::Expr SelectRule(const ir::Expr& c, const ir::Expr& t, const ir::Expr& f);
  // rules_vector.cc: Broadcast/Ramp operands; undefined when no rule applies.
  ir::Expr VectorRule(ir::ExprKind kind, const ir::Expr& a, const ir::Expr& b);
  ir::Expr RampFloorDivMod(ir::ExprKind kind, const ir::RampNode& ramp, const ir::Expr& divisor);
  // rewriter.cc
  ir::Expr CastRule(ir::DataType t, const ir::Expr& value);
  bool RampFitsItsType(const ir::RampNode& ramp);

  Analyzer* analyzer() const { return analyzer_; }

 protected:
#define TF_DECLARE_VISIT(Name) ir::Expr VisitExpr_(const ir::Name##Node* op) override;
  TF_IR_BINARY_NODES(TF_DECLARE_VISIT)
  TF_DECLARE_VISIT(Not)
  TF_DECLARE_VISIT(Select)
  TF_DECLARE_VISIT(Cast)
  TF_DECLARE_VISIT(Ramp)
  TF_DECLARE_VISIT(Broadcast)
  TF_DECLARE_VISIT(Let)
  TF_DECLARE_VISIT(Call)
  TF_DECLARE_VISIT(Reduce)
#undef TF_DECLARE_VISIT

 private:
  ir::Expr VisitIfThenElse(const ir::CallNode* op);

  Analyzer* analyzer_;
};

// Builds the binary node `kind` without simplification.
ir::Expr MakeBinaryNode(ir::ExprKind kind, ir::Expr a, ir::Expr b);
// The operands of `e` when it is a binary node of `kind`.
std::optional<std::pair<ir::Expr, ir::Expr>> OperandsOf(const ir::Expr& e, ir::ExprKind kind);

}  // namespace tunefarm::arith
