// SimplifyCache: remembered results of Analyzer::Simplify. Index expressions are simplified
// many times over in the same analyzer state (bound inference rebuilds the same endpoints for
// every query), so results are keyed by a state id and the expression's structure. Only pure
// index expressions are kept (immediates, variables, arithmetic, comparisons, logic, casts,
// selects, `likely`): their structure says everything the simplifier reads from them.
#pragma once

#include <cstddef>
#include <cstdint>
#include <unordered_map>

#include "compiler/ir/expr.h"

namespace tunefarm::arith {

class SimplifyCache {
 public:
  // The structural hash of `e`, or false when `e` is not an expression the cache keeps.
  static bool Hash(const ir::Expr& e, size_t* hash);

  // The result remembered for an expression equal to `e` (with hash `hash`) in `state`, or
  // undefined. An expression that simplified to itself gives `e` back.
  ir::Expr Find(uint64_t state, size_t hash, const ir::Expr& e) const;
  void Insert(uint64_t state, size_t hash, const ir::Expr& e, const ir::Expr& result);

 private:
  struct Key {
    uint64_t state;
    size_t hash;
    ir::Expr expr;  // holds the expression, and with it the variables compared by address
  };
  struct KeyHash {
    size_t operator()(const Key& k) const { return k.hash ^ (k.state * 0x9e3779b97f4a7c15ULL); }
  };
  struct KeyEq {
    bool operator()(const Key& a, const Key& b) const;
  };
  // Entries of states that no longer exist are useless; the bound keeps memory flat.
  static constexpr size_t kMaxEntries = 8192;

  struct Value {
    ir::Expr result;
    bool unchanged;
  };

  std::unordered_map<Key, Value, KeyHash, KeyEq> map_;
};

}  // namespace tunefarm::arith
