// Which flat buffers a piece of lowered IR reads and writes, and which variables it uses: the
// facts inject_virtual_thread, thread_sync and remove_no_op base their decisions on.
#pragma once

#include <string>
#include <unordered_map>
#include <unordered_set>

#include "compiler/ir/expr.h"
#include "compiler/ir/stmt.h"

namespace tunefarm::passes {

using VarSet = std::unordered_set<const ir::VarNode*>;

// Buffer variables of the flat Loads and Stores in a statement.
struct BufferAccess {
  VarSet reads;
  VarSet writes;
  bool Touches(const ir::VarNode* buffer_var) const {
    return reads.count(buffer_var) > 0 || writes.count(buffer_var) > 0;
  }
};
BufferAccess CollectAccess(const ir::Stmt& s);

// Whether any variable in `vars` appears as a value (buffer variables of Load/Store do not count).
bool UsesAnyVar(const ir::Expr& e, const VarSet& vars);
bool UsesAnyVar(const ir::Stmt& s, const VarSet& vars);
inline bool UsesVar(const ir::Stmt& s, const ir::Var& v) { return UsesAnyVar(s, {v.get()}); }
inline bool UsesVar(const ir::Expr& e, const ir::Var& v) { return UsesAnyVar(e, {v.get()}); }

// The storage scope of every Allocate in `s`, by buffer variable.
std::unordered_map<const ir::VarNode*, std::string> AllocationScopes(const ir::Stmt& s);

}  // namespace tunefarm::passes
