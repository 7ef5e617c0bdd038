// IndexEvaluator: evaluates integer index expressions of lowered IR at given loop-variable values,
// which is how the loop-nest analysis measures strides without a symbolic analysis.
#pragma once

#include <cstdint>
#include <optional>
#include <unordered_map>

#include "compiler/ir/expr.h"

namespace tunefarm::tuner {

class IndexEvaluator {
 public:
  using Values = std::unordered_map<const ir::VarNode*, int64_t>;
  using Lets = std::unordered_map<const ir::VarNode*, ir::Expr>;

  // `lets` binds variables to expressions (LetStmt), evaluated on demand with the same values.
  IndexEvaluator(const Values& values, const Lets& lets) : values_(values), lets_(lets) {}

  // The value of `e`, or nullopt when it reads an unbound variable, a buffer, a float, divides by
  // zero, or has a node kind index arithmetic never uses. Comparisons and logic give 0 or 1;
  // ramps and broadcasts give their first lane; likely(c) gives c.
  std::optional<int64_t> Eval(const ir::Expr& e) const { return Eval(e, 0); }

 private:
  std::optional<int64_t> Eval(const ir::Expr& e, int depth) const;
  std::optional<int64_t> EvalBinary(ir::ExprKind kind, const ir::Expr& a, const ir::Expr& b,
                                    int depth) const;

  const Values& values_;
  const Lets& lets_;
};

}  // namespace tunefarm::tuner
