#include "compiler/codegen/llvm/same_computation.h"

#include <unordered_map>

#include "compiler/ir/stmt.h"
#include "compiler/ir/structural_equal.h"

namespace tunefarm::codegen {
namespace {

// The body behind one use of each parameter's storage, in parameter order: structural equality
// with free variables mapped by first use then pairs the parameters by position.
ir::Stmt ComparableBody(const ir::PrimFunc& f) {
  std::vector<ir::Stmt> seq;
  for (const ir::Buffer& p : f.params) seq.push_back(ir::EvaluateNode::Make(p->data));
  seq.push_back(f.body);
  return ir::SeqStmtNode::Make(std::move(seq));
}

bool SameParams(const ir::PrimFunc& a, const ir::PrimFunc& b) {
  if (a.params.size() != b.params.size()) return false;
  for (size_t i = 0; i < a.params.size(); ++i) {
    const ir::BufferNode& x = *a.params[i].get();
    const ir::BufferNode& y = *b.params[i].get();
    if (!(x.dtype == y.dtype) || x.scope != y.scope || x.shape.size() != y.shape.size()) {
      return false;
    }
    for (size_t d = 0; d < x.shape.size(); ++d) {
      if (!ir::StructuralEqual(x.shape[d], y.shape[d])) return false;
    }
  }
  return true;
}

}  // namespace

std::vector<int> EarlierSameComputation(const std::vector<ir::PrimFunc>& funcs,
                                        const std::vector<KernelArgs>& args) {
  std::vector<int> same(funcs.size(), -1);
  std::vector<ir::Stmt> bodies(funcs.size());
  std::unordered_multimap<size_t, int> by_hash;  // of the functions emitted with their own body
  for (size_t i = 0; i < funcs.size(); ++i) {
    if (!args[i].shape_vars.empty() || !args[i].scalars.empty()) continue;
    bodies[i] = ComparableBody(funcs[i]);
    const size_t hash = ir::StructuralHash(bodies[i]);
    auto [first, last] = by_hash.equal_range(hash);
    for (auto it = first; it != last; ++it) {
      const int j = it->second;
      if (SameParams(funcs[i], funcs[j]) &&
          ir::StructuralEqual(bodies[i], bodies[j], /*map_free_vars=*/true)) {
        same[i] = j;
        break;
      }
    }
    if (same[i] < 0) by_hash.emplace(hash, static_cast<int>(i));
  }
  return same;
}

}  // namespace tunefarm::codegen
