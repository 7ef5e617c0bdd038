#include "compiler/passes/unroll_loops.h"

#include <optional>
#include <spdlog/spdlog.h>
#include <utility>
#include <vector>

#include "compiler/ir/mutator.h"
#include "compiler/ir/op.h"
#include "compiler/ir/printer.h"
#include "compiler/passes/pass.h"

namespace tunefarm::passes {
namespace {

// Replaces the loop variable by a constant and folds the constant arithmetic that leaves, so each
// copy reads as plain indices even before simplify runs.
class ConstantSubstituter : public ir::Mutator {
 public:
  ConstantSubstituter(const ir::VarNode* var, ir::Expr value)
      : var_(var), value_(std::move(value)) {}

  ir::Expr VisitExpr(const ir::Expr& e) override {
    if (e.get() == var_) return value_;
    return ir::FoldConstants(Mutator::VisitExpr(e));
  }

 private:
  const ir::VarNode* var_;
  ir::Expr value_;
};

class Unroller : public ir::Mutator {
 protected:
  ir::Stmt VisitStmt_(const ir::ForNode* op) override {
    ir::Stmt s = Mutator::VisitStmt_(op);  // inner loops first
    const auto* loop = s.As<ir::ForNode>();
    if (!loop || loop->for_kind != ir::ForKind::kUnrolled) return s;
    std::optional<int64_t> extent = ir::AsConstInt(loop->extent);
    if (!extent) {
      PassLogger().debug("unroll_loops: loop {} stays serial: extent {} is not constant",
                         loop->loop_var.name(), ir::ToString(loop->extent));
      return ir::ForNode::Make(loop->loop_var, loop->min, loop->extent, ir::ForKind::kSerial,
                               loop->body);
    }
    std::vector<ir::Stmt> copies;
    copies.reserve(static_cast<size_t>(std::max<int64_t>(*extent, 0)));
    for (int64_t i = 0; i < *extent; ++i) {
      ir::Expr value = loop->min + ir::IntImm(loop->loop_var.dtype(), i);
      copies.push_back(ConstantSubstituter(loop->loop_var.get(), value).VisitStmt(loop->body));
    }
    return ir::SeqStmtNode::Make(std::move(copies));
  }
};

}  // namespace

absl::StatusOr<ir::PrimFunc> UnrollLoops(ir::PrimFunc f) {
  f.body = Unroller().VisitStmt(f.body);
  return f;
}

}  // namespace tunefarm::passes
