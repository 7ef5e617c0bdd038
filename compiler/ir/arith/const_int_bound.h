// Constant bounds of integer expressions: the [min, max] every value of an expression lies in,
// given constant bounds of its variables. The simplifier uses them to prove signs, orders and
// the ranges that div/mod rules need.
#pragma once

#include <cstdint>
#include <unordered_map>

#include "compiler/ir/arith/int_arith.h"
#include "compiler/ir/expr.h"

namespace tunefarm::arith {

// An inclusive range of int64 values; kNegInf / kPosInf mark a missing bound.
struct ConstIntBound {
  int64_t min = kNegInf;
  int64_t max = kPosInf;

  static ConstIntBound Everything() { return {}; }
  static ConstIntBound Point(int64_t v) { return {v, v}; }
  // The range of an integer type's values (bool is [0, 1]); Everything for other types.
  static ConstIntBound OfType(ir::DataType t);

  bool IsPoint() const { return min == max && min != kNegInf && min != kPosInf; }
  bool IsEverything() const { return min == kNegInf && max == kPosInf; }
  ConstIntBound Intersect(const ConstIntBound& other) const;
  ConstIntBound Union(const ConstIntBound& other) const;
  friend bool operator==(const ConstIntBound& a, const ConstIntBound& b) {
    return a.min == b.min && a.max == b.max;
  }
};

using ConstIntBoundMap = std::unordered_map<const ir::VarNode*, ConstIntBound>;

// Bounds of every lane of `e` when each variable in `vars` lies in its range (other variables
// span their type). Signed arithmetic is assumed not to overflow, as index arithmetic must not;
// unsigned arithmetic that may wrap gives the type's whole range.
ConstIntBound EvalConstIntBound(const ir::Expr& e, const ConstIntBoundMap& vars);

}  // namespace tunefarm::arith
