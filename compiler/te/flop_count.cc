#include "compiler/te/flop_count.h"

#include <unordered_set>

#include "absl/strings/str_cat.h"
#include "compiler/ir/printer.h"
#include "compiler/ir/simplify/simplify.h"
#include "compiler/ir/visitor.h"

namespace tunefarm::te {
namespace {

// Operations per element of one body. Buffer indices are address arithmetic, so they are skipped.
class OpCounter : public ir::Visitor {
 public:
  double count = 0;

 protected:
#define TF_COUNT_ARITH(Name)                           \
  void VisitExpr_(const ir::Name##Node* op) override { \
    count += 1;                                        \
    ir::Visitor::VisitExpr_(op);                       \
  }
  TF_COUNT_ARITH(Add)
  TF_COUNT_ARITH(Sub)
  TF_COUNT_ARITH(Mul)
  TF_COUNT_ARITH(Div)
  TF_COUNT_ARITH(Mod)
  TF_COUNT_ARITH(FloorDiv)
  TF_COUNT_ARITH(FloorMod)
  TF_COUNT_ARITH(Min)
  TF_COUNT_ARITH(Max)
#undef TF_COUNT_ARITH

  void VisitExpr_(const ir::CallNode* op) override {
    switch (op->op) {
      case ir::Intrinsic::kLikely:
      case ir::Intrinsic::kIfThenElse:
      case ir::Intrinsic::kSyncThreads:
        break;
      default:
        count += 1;
    }
    ir::Visitor::VisitExpr_(op);
  }
  void VisitExpr_(const ir::BufferLoadNode*) override {}
  void VisitExpr_(const ir::ReduceNode* op) override {
    // The combiner's own arithmetic (1 for sum, max and min) once per reduced element.
    OpCounter combiner;
    combiner.VisitExpr(op->combiner->result);
    count += combiner.count;
    VisitExpr(op->source);
  }
};

absl::StatusOr<double> DomainSize(const OperationNode& op, const ir::VarMap& values) {
  double size = 1;
  auto multiply = [&](const std::vector<ir::IterVar>& axes) -> absl::Status {
    for (const ir::IterVar& iv : axes) {
      ir::Expr extent = arith::Simplify(ir::Substitute(iv->dom.extent, values));
      const auto* imm = extent.As<ir::IntImmNode>();
      if (imm == nullptr) {
        return absl::InvalidArgumentError(absl::StrCat("counting FLOPs of ", op.name, ": extent ",
                                                       ir::ToString(extent), " of axis ",
                                                       iv->var.name(), " has no value (bind it)"));
      }
      size *= static_cast<double>(imm->value);
    }
    return absl::OkStatus();
  };
  if (absl::Status st = multiply(op.axis); !st.ok()) return st;
  if (absl::Status st = multiply(op.reduce_axis); !st.ok()) return st;
  return size;
}

}  // namespace

absl::StatusOr<double> CountFlops(const std::vector<Tensor>& outputs, const ir::VarMap& values) {
  std::vector<Operation> pending;
  for (const Tensor& t : outputs) pending.push_back(t.op());
  std::unordered_set<const OperationNode*> seen;
  double total = 0;
  while (!pending.empty()) {
    Operation op = pending.back();
    pending.pop_back();
    if (!seen.insert(op.get()).second || op->kind != OpKind::kCompute) continue;
    OpCounter counter;
    counter.VisitExpr(op->body);
    absl::StatusOr<double> size = DomainSize(*op, values);
    if (!size.ok()) return size.status();
    total += counter.count * *size;
    for (const Operation& input : op->InputOps()) pending.push_back(input);
  }
  return total;
}

}  // namespace tunefarm::te
