// LinearSum: an integer expression read as constant + sum(coeff * term), the canonical form the
// simplifier gives index arithmetic. Like terms combine; terms keep their order of first
// appearance, so equal inputs give structurally equal outputs and `i*32 + j` stays readable.
// Coefficients live in the ring of the type's width, which makes the form exact under wraparound.
#pragma once

#include <cstdint>
#include <vector>

#include "compiler/ir/expr.h"

namespace tunefarm::arith {

// Scalar int/uint types (not bool): the types the linear form applies to.
bool IsLinearType(ir::DataType t);

class LinearSum {
 public:
  struct Term {
    ir::Expr expr;  // not an Add, Sub, immediate, or Mul by an immediate
    int64_t coeff;  // nonzero, wrapped to the type
  };

  explicit LinearSum(ir::DataType dtype) : dtype_(dtype) {}
  // Flattens Add, Sub and Mul by an immediate (distributing over sums); anything else is a term.
  static LinearSum FromExpr(const ir::Expr& e);

  void AddExpr(const ir::Expr& e, int64_t scale);
  void AddTerm(const ir::Expr& term, int64_t coeff);
  void AddConst(int64_t c);
  void AddSum(const LinearSum& other, int64_t scale);

  ir::DataType dtype() const { return dtype_; }
  const std::vector<Term>& terms() const { return terms_; }
  int64_t constant() const { return constant_; }
  bool IsConst() const { return terms_.empty(); }
  // The coefficient of `term` (0 when absent); the term is matched structurally.
  int64_t CoeffOf(const ir::Expr& term) const;

  // Rebuilds an expression: the first positive term, the others in order (negative ones
  // subtracted), then the constant; `k - ...` when no term is positive.
  ir::Expr ToExpr() const;
  // True when ToExpr() would give an expression structurally equal to the binary node
  // `kind(a, b)`, so a caller can keep that node instead of building a copy. May answer false
  // for some equal forms (a term that is itself the whole expression), never true wrongly.
  bool MatchesBinary(ir::ExprKind kind, const ir::Expr& a, const ir::Expr& b) const;

 private:
  // The index of the term that leads ToExpr() (the first additive one); terms_.size() if none.
  size_t FirstAdditive() const;

  ir::DataType dtype_;
  std::vector<Term> terms_;
  int64_t constant_ = 0;
};

}  // namespace tunefarm::arith
