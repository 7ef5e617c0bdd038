// Records of how a stage's iteration axes were derived from one another (split, fuse), and the
// per-axis annotations the loop nest honours (loop kind, thread binding, pragmas).
#pragma once

#include <memory>
#include <string>
#include <variant>
#include <vector>

#include "compiler/ir/expr.h"
#include "compiler/ir/stmt.h"

namespace tunefarm::schedule {

struct TensorIntrinNode;

// parent = outer * inner_extent + inner. Exactly one of factor (inner extent) and nparts (outer
// extent) is defined.
struct SplitRelation {
  ir::IterVar parent;
  ir::IterVar outer;
  ir::IterVar inner;
  ir::Expr factor;
  ir::Expr nparts;
};

// fused = outer * inner_extent + inner.
struct FuseRelation {
  ir::IterVar outer;
  ir::IterVar inner;
  ir::IterVar fused;
};

using Relation = std::variant<SplitRelation, FuseRelation>;

struct IterVarAttr {
  ir::ForKind kind = ir::ForKind::kSerial;
  ir::IterVar bind_thread;           // defined when bound to a thread, block or vthread axis
  std::vector<std::string> pragmas;  // emitted as pragma_<name> attributes
  // Set on the one leaf whose loop nest (this loop and every loop inside it) is replaced by the
  // intrinsic's emission.
  std::shared_ptr<const TensorIntrinNode> tensor_intrin;
};

}  // namespace tunefarm::schedule
