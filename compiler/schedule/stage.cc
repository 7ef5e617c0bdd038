#include <algorithm>

#include "absl/strings/str_cat.h"
#include "compiler/ir/op.h"
#include "compiler/ir/printer.h"
#include "compiler/schedule/schedule_node.h"
#include "compiler/schedule/tensor_intrin.h"

namespace tunefarm::schedule {
namespace {

ir::IterVar NewIterVar(const ir::IterVar& like, const std::string& suffix) {
  ir::Var v(like->var.name() + suffix, like->var.dtype());
  return ir::IterVar(ir::Range{}, v, like->iter_type);
}

const char* AxisKind(const ir::IterVar& iv) {
  return iv->iter_type == ir::IterVarType::kCommReduce ? "reduction axis" : "axis";
}

}  // namespace

Stage::Stage(ScheduleNode* schedule, te::Operation op)
    : schedule_(schedule), op_(op), origin_op_(std::move(op)) {
  ResetIterVars();
}

void Stage::ResetIterVars() {
  all_iter_vars_ = op_->axis;
  all_iter_vars_.insert(all_iter_vars_.end(), op_->reduce_axis.begin(), op_->reduce_axis.end());
  leaf_iter_vars_ = all_iter_vars_;
  relations_.clear();
  attrs_.clear();
}

bool Stage::Fail(const std::string& primitive, const std::string& message) {
  if (schedule_->error.ok()) {
    schedule_->error =
        absl::InvalidArgumentError(absl::StrCat(primitive, " on stage ", name(), ": ", message));
  }
  return false;
}

bool Stage::CheckLeaf(const std::string& primitive, const ir::IterVar& iv) {
  if (!iv.defined()) return Fail(primitive, "undefined axis");
  auto same = [&](const ir::IterVar& x) { return x.same_as(iv); };
  if (std::any_of(leaf_iter_vars_.begin(), leaf_iter_vars_.end(), same)) return true;
  if (std::any_of(all_iter_vars_.begin(), all_iter_vars_.end(), same)) {
    return Fail(primitive, absl::StrCat(AxisKind(iv), " ", iv->var.name(),
                                        " was already split or fused; use the axes that "
                                        "split or fuse returned"));
  }
  return Fail(primitive,
              absl::StrCat(AxisKind(iv), " ", iv->var.name(), " does not belong to this stage"));
}

bool Stage::IsReduceDerived(const ir::IterVar& iv) const {
  return iv->iter_type == ir::IterVarType::kCommReduce;
}

IterVarAttr& Stage::MutableAttr(const ir::IterVar& iv) { return attrs_[iv.get()]; }

const IterVarAttr* Stage::attr_of(const ir::IterVar& iv) const {
  auto it = attrs_.find(iv.get());
  return it == attrs_.end() ? nullptr : &it->second;
}

Stage& Stage::SplitImpl(const char* primitive, const ir::IterVar& parent, ir::Expr factor,
                        ir::Expr nparts, ir::IterVar* outer, ir::IterVar* inner) {
  // Outputs are always set, so a caller can go on after a failure; Lower reports the error.
  ir::IterVar o = parent.defined() ? NewIterVar(parent, ".outer") : ir::IterVar();
  ir::IterVar i = parent.defined() ? NewIterVar(parent, ".inner") : ir::IterVar();
  *outer = o;
  *inner = i;
  if (!CheckLeaf(primitive, parent)) return *this;
  const ir::Expr& amount = factor.defined() ? factor : nparts;
  const char* what = factor.defined() ? "factor" : "nparts";
  if (!amount.defined() || !amount.dtype().is_integral()) {
    Fail(primitive, absl::StrCat(what, " of axis ", parent->var.name(), " must be an integer"));
    return *this;
  }
  if (auto c = ir::AsConstInt(amount); c && *c <= 0) {
    Fail(primitive, absl::StrCat("split ", what, " ", *c, " on axis ", parent->var.name(),
                                 " must be positive"));
    return *this;
  }
  auto pos = std::find_if(leaf_iter_vars_.begin(), leaf_iter_vars_.end(),
                          [&](const ir::IterVar& x) { return x.same_as(parent); });
  pos = leaf_iter_vars_.erase(pos);
  leaf_iter_vars_.insert(pos, {o, i});
  all_iter_vars_.push_back(o);
  all_iter_vars_.push_back(i);
  ir::DataType t = parent->var.dtype();
  if (factor.defined()) factor = ir::Cast(t, factor);
  if (nparts.defined()) nparts = ir::Cast(t, nparts);
  relations_.push_back(SplitRelation{parent, o, i, std::move(factor), std::move(nparts)});
  return *this;
}

Stage& Stage::split(const ir::IterVar& parent, ir::Expr factor, ir::IterVar* outer,
                    ir::IterVar* inner) {
  return SplitImpl("split", parent, std::move(factor), ir::Expr(), outer, inner);
}

Stage& Stage::split_by_nparts(const ir::IterVar& parent, ir::Expr nparts, ir::IterVar* outer,
                              ir::IterVar* inner) {
  return SplitImpl("split", parent, ir::Expr(), std::move(nparts), outer, inner);
}

Stage& Stage::tile(const ir::IterVar& x, const ir::IterVar& y, ir::Expr x_factor, ir::Expr y_factor,
                   ir::IterVar* x_outer, ir::IterVar* y_outer, ir::IterVar* x_inner,
                   ir::IterVar* y_inner) {
  if (x.same_as(y)) {
    Fail("tile", absl::StrCat("x and y are the same axis ", x.defined() ? x->var.name() : ""));
  }
  SplitImpl("tile", x, std::move(x_factor), ir::Expr(), x_outer, x_inner);
  SplitImpl("tile", y, std::move(y_factor), ir::Expr(), y_outer, y_inner);
  if (!schedule_->error.ok()) return *this;
  return reorder({*x_outer, *y_outer, *x_inner, *y_inner});
}

Stage& Stage::fuse(const ir::IterVar& outer, const ir::IterVar& inner, ir::IterVar* fused) {
  *fused = outer.defined() && inner.defined()
               ? ir::IterVar(ir::Range{},
                             ir::Var(outer->var.name() + "." + inner->var.name() + ".fused",
                                     outer->var.dtype()),
                             outer->iter_type)
               : ir::IterVar();
  if (!CheckLeaf("fuse", outer) || !CheckLeaf("fuse", inner)) return *this;
  if (outer->iter_type != inner->iter_type) {
    Fail("fuse", absl::StrCat("cannot fuse ", AxisKind(outer), " ", outer->var.name(), " with ",
                              AxisKind(inner), " ", inner->var.name()));
    return *this;
  }
  auto find = [&](const ir::IterVar& iv) {
    return std::find_if(leaf_iter_vars_.begin(), leaf_iter_vars_.end(),
                        [&](const ir::IterVar& x) { return x.same_as(iv); });
  };
  auto po = find(outer), pi = find(inner);
  if (pi != po + 1) {
    Fail("fuse", absl::StrCat("axes ", outer->var.name(), " and ", inner->var.name(),
                              " are not adjacent (outer first) in the loop order; reorder them "
                              "first"));
    return *this;
  }
  *po = *fused;
  leaf_iter_vars_.erase(pi);
  all_iter_vars_.push_back(*fused);
  relations_.push_back(FuseRelation{outer, inner, *fused});
  return *this;
}

Stage& Stage::reorder(const std::vector<ir::IterVar>& order) {
  std::vector<size_t> positions;
  for (const auto& iv : order) {
    if (!CheckLeaf("reorder", iv)) return *this;
    size_t pos = std::find_if(leaf_iter_vars_.begin(), leaf_iter_vars_.end(),
                              [&](const ir::IterVar& x) { return x.same_as(iv); }) -
                 leaf_iter_vars_.begin();
    if (std::find(positions.begin(), positions.end(), pos) != positions.end()) {
      Fail("reorder", absl::StrCat("axis ", iv->var.name(), " appears twice"));
      return *this;
    }
    positions.push_back(pos);
  }
  std::vector<size_t> sorted = positions;
  std::sort(sorted.begin(), sorted.end());
  std::vector<ir::IterVar> leaves = leaf_iter_vars_;
  for (size_t i = 0; i < sorted.size(); ++i) leaves[sorted[i]] = order[i];
  leaf_iter_vars_ = std::move(leaves);
  return *this;
}

Stage& Stage::bind(const ir::IterVar& axis, const ir::IterVar& thread) {
  if (!CheckLeaf("bind", axis)) return *this;
  if (!thread.defined() || thread->iter_type != ir::IterVarType::kThreadIndex) {
    Fail("bind", absl::StrCat("axis ", axis->var.name(), " must be bound to a thread_axis"));
    return *this;
  }
  if (IsReduceDerived(axis)) {
    Fail("bind", absl::StrCat("cannot bind reduction axis ", axis->var.name(), " to ",
                              thread->thread_tag, " (threads would race on the output)"));
    return *this;
  }
  for (const auto& [iv, attr] : attrs_) {
    if (attr.bind_thread.same_as(thread) && iv != axis.get()) {
      Fail("bind", absl::StrCat(thread->thread_tag, " is already bound to another axis"));
      return *this;
    }
  }
  IterVarAttr& attr = MutableAttr(axis);
  if (attr.kind != ir::ForKind::kSerial) {
    Fail("bind",
         absl::StrCat("axis ", axis->var.name(), " is already ", ir::ForKindName(attr.kind)));
    return *this;
  }
  attr.bind_thread = thread;
  attr.kind = ir::ForKind::kThreadBinding;
  return *this;
}

Stage& Stage::tensorize(const ir::IterVar& axis, std::shared_ptr<const TensorIntrinNode> intrin) {
  if (!CheckLeaf("tensorize", axis)) return *this;
  if (intrin == nullptr) {
    Fail("tensorize", "no tensor intrinsic given");
    return *this;
  }
  if (op_->kind != te::OpKind::kCompute) {
    Fail("tensorize", "only a compute stage can be tensorized");
    return *this;
  }
  for (const auto& [iv, attr] : attrs_) {
    if (attr.tensor_intrin != nullptr && iv != axis.get()) {
      Fail("tensorize",
           absl::StrCat("another axis is already tensorized with ", attr.tensor_intrin->name));
      return *this;
    }
  }
  MutableAttr(axis).tensor_intrin = std::move(intrin);
  return *this;
}

}  // namespace tunefarm::schedule
