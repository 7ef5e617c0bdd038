#include "compiler/passes/partition_vector_tails.h"

#include "compiler/ir/mutator.h"
#include "compiler/ir/op.h"
#include "compiler/ir/simplify/simplify.h"

namespace tunefarm::passes {
namespace {

// Whether `cond` can only turn from true to false as `v` increases.
bool TruthShrinksWith(const ir::Expr& cond, const ir::Var& v) {
  if (const auto* a = cond.As<ir::AndNode>()) {
    return TruthShrinksWith(a->a, v) && TruthShrinksWith(a->b, v);
  }
  ir::Expr lhs, rhs;
  int direction = 0;  // +1: true while lhs - rhs is small; -1: true while it is large
  if (const auto* lt = cond.As<ir::LTNode>()) lhs = lt->a, rhs = lt->b, direction = 1;
  if (const auto* le = cond.As<ir::LENode>()) lhs = le->a, rhs = le->b, direction = 1;
  if (const auto* gt = cond.As<ir::GTNode>()) lhs = gt->a, rhs = gt->b, direction = -1;
  if (const auto* ge = cond.As<ir::GENode>()) lhs = ge->a, rhs = ge->b, direction = -1;
  if (direction == 0 || !lhs.dtype().is_integral() || !lhs.dtype().is_scalar()) return false;
  ir::Expr diff = lhs - rhs;
  ir::Expr next = ir::Substitute(diff, {{v.get(), v + 1}});
  std::optional<int64_t> step = ir::AsConstInt(arith::Simplify(next - diff));
  return step && *step * direction >= 0;
}

class TailPartitioner : public ir::Mutator {
 protected:
  ir::Stmt VisitStmt_(const ir::ForNode* op) override {
    ir::Stmt visited = ir::Mutator::VisitStmt_(op);
    const auto* loop = visited.As<ir::ForNode>();
    if (loop == nullptr || loop->for_kind != ir::ForKind::kVectorized) return visited;
    const auto* guard = loop->body.As<ir::IfThenElseNode>();
    if (guard == nullptr || guard->else_case.defined()) return visited;
    ir::Expr cond = guard->condition;
    if (const auto* call = cond.As<ir::CallNode>(); call && call->op == ir::Intrinsic::kLikely) {
      cond = call->args[0];
    }
    auto extent = ir::AsConstInt(loop->extent);
    if (!extent || !TruthShrinksWith(cond, loop->loop_var)) return visited;
    ir::Expr last_lane = loop->min + ir::IntImm(loop->min.dtype(), *extent - 1);
    ir::Expr full = arith::Simplify(ir::Substitute(cond, {{loop->loop_var.get(), last_lane}}));
    ir::Stmt vector_loop = ir::ForNode::Make(loop->loop_var, loop->min, loop->extent,
                                             ir::ForKind::kVectorized, guard->then_case);
    ir::Stmt tail_loop = ir::ForNode::Make(loop->loop_var, loop->min, loop->extent,
                                           ir::ForKind::kSerial, loop->body);
    return ir::IfThenElseNode::Make(ir::Likely(full), vector_loop, tail_loop);
  }
};

}  // namespace

absl::StatusOr<ir::PrimFunc> PartitionVectorTails(ir::PrimFunc f) {
  f.body = TailPartitioner().VisitStmt(f.body);
  return f;
}

}  // namespace tunefarm::passes
