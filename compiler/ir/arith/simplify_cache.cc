#include "compiler/ir/arith/simplify_cache.h"

#include <functional>

namespace tunefarm::arith {
namespace {

using ir::Expr;
using ir::ExprKind;

size_t Mix(size_t h, size_t v) { return h ^ (v + 0x9e3779b97f4a7c15ULL + (h << 6) + (h >> 2)); }

size_t TypeHash(ir::DataType t) {
  return (static_cast<size_t>(t.code()) << 24) ^ (static_cast<size_t>(t.bits()) << 16) ^
         static_cast<size_t>(t.lanes());
}

// The operands of the kinds the cache keeps, in order; false for any other kind.
bool Children(const Expr& e, const Expr* out[3], int* n) {
  *n = 0;
  switch (e.kind()) {
    case ExprKind::kIntImm:
    case ExprKind::kVar:
      return true;
#define TF_CHILDREN_CASE(Name)              \
  case ExprKind::k##Name: {                 \
    const auto* x = e.As<ir::Name##Node>(); \
    out[0] = &x->a;                         \
    out[1] = &x->b;                         \
    *n = 2;                                 \
    return true;                            \
  }
      TF_IR_BINARY_NODES(TF_CHILDREN_CASE)
#undef TF_CHILDREN_CASE
    case ExprKind::kNot:
      out[0] = &e.As<ir::NotNode>()->a;
      *n = 1;
      return true;
    case ExprKind::kCast:
      out[0] = &e.As<ir::CastNode>()->value;
      *n = 1;
      return true;
    case ExprKind::kSelect: {
      const auto* x = e.As<ir::SelectNode>();
      out[0] = &x->condition;
      out[1] = &x->true_value;
      out[2] = &x->false_value;
      *n = 3;
      return true;
    }
    case ExprKind::kCall: {
      const auto* x = e.As<ir::CallNode>();
      if (x->op != ir::Intrinsic::kLikely || x->args.size() != 1) return false;
      out[0] = &x->args[0];
      *n = 1;
      return true;
    }
    default:
      return false;
  }
}

// Equal kinds and types; immediates by value and variables by identity.
bool SameNode(const Expr& a, const Expr& b) {
  if (a.kind() != b.kind() || !(a.dtype() == b.dtype())) return false;
  if (const auto* x = a.As<ir::IntImmNode>()) return x->value == b.As<ir::IntImmNode>()->value;
  if (a.kind() == ExprKind::kVar) return a.same_as(b);
  if (const auto* x = a.As<ir::CallNode>()) return x->op == b.As<ir::CallNode>()->op;
  return true;
}

bool Equal(const Expr& a, const Expr& b) {
  if (a.same_as(b)) return true;
  if (!SameNode(a, b)) return false;
  const Expr *ca[3], *cb[3];
  int na = 0, nb = 0;
  if (!Children(a, ca, &na) || !Children(b, cb, &nb) || na != nb) return false;
  for (int i = 0; i < na; ++i) {
    if (!Equal(*ca[i], *cb[i])) return false;
  }
  return true;
}

}  // namespace

bool SimplifyCache::Hash(const Expr& e, size_t* hash) {
  const Expr* children[3];
  int n = 0;
  if (!e.defined() || !Children(e, children, &n)) return false;
  size_t h = Mix(static_cast<size_t>(e.kind()), TypeHash(e.dtype()));
  if (const auto* imm = e.As<ir::IntImmNode>()) {
    h = Mix(h, static_cast<size_t>(imm->value));
  } else if (e.kind() == ExprKind::kVar) {
    h = Mix(h, std::hash<const void*>()(e.get()));
  } else if (const auto* call = e.As<ir::CallNode>()) {
    h = Mix(h, static_cast<size_t>(call->op));
  }
  for (int i = 0; i < n; ++i) {
    size_t c;
    if (!Hash(*children[i], &c)) return false;
    h = Mix(h, c);
  }
  *hash = h;
  return true;
}

bool SimplifyCache::KeyEq::operator()(const Key& a, const Key& b) const {
  return a.state == b.state && a.hash == b.hash && Equal(a.expr, b.expr);
}

Expr SimplifyCache::Find(uint64_t state, size_t hash, const Expr& e) const {
  auto it = map_.find(Key{state, hash, e});
  if (it == map_.end()) return Expr();
  return it->second.unchanged ? e : it->second.result;
}

void SimplifyCache::Insert(uint64_t state, size_t hash, const Expr& e, const Expr& result) {
  if (map_.size() >= kMaxEntries) map_.clear();
  map_.emplace(Key{state, hash, e}, Value{result, result.same_as(e)});
}

}  // namespace tunefarm::arith
