// Modular sets: what is known about the residues of an integer expression, as the set
// {coeff * k + base | k integer}. The simplifier uses them for div/mod rules; vectorization and
// storage passes use them to ask whether an index is a multiple of a width (alignment).
#pragma once

#include <cstdint>
#include <unordered_map>

#include "compiler/ir/expr.h"

namespace tunefarm::arith {

// coeff == 0: the single value `base`. coeff == 1: nothing known. Otherwise base is in
// [0, coeff).
struct ModularSet {
  int64_t coeff = 1;
  int64_t base = 0;

  static ModularSet Everything() { return {1, 0}; }
  static ModularSet Const(int64_t v) { return {0, v}; }
  // Normalizes the sign of coeff and reduces base modulo coeff.
  static ModularSet Make(int64_t coeff, int64_t base);

  bool IsEverything() const { return coeff == 1; }
  bool IsConst() const { return coeff == 0; }
  // True when every value is a multiple of `factor` (> 0).
  bool IsMultipleOf(int64_t factor) const;
  // The smallest set holding both.
  ModularSet Union(const ModularSet& other) const;
  friend bool operator==(const ModularSet& a, const ModularSet& b) {
    return a.coeff == b.coeff && a.base == b.base;
  }
};

using ModularSetMap = std::unordered_map<const ir::VarNode*, ModularSet>;

// The modular set of a scalar integer expression when each variable in `vars` lies in its set
// (other variables are unconstrained). Arithmetic is read without overflow; any step that would
// overflow int64 gives Everything.
ModularSet EvalModularSet(const ir::Expr& e, const ModularSetMap& vars);

}  // namespace tunefarm::arith
