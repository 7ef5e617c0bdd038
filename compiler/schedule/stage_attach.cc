// Stage primitives that choose where a stage is computed and how its loops run.
#include "absl/strings/str_cat.h"
#include "compiler/schedule/schedule_node.h"

namespace tunefarm::schedule {

Stage& Stage::compute_at(Stage& parent, const ir::IterVar& scope) {
  if (&parent == this) {
    Fail("compute_at", "a stage cannot be computed at itself");
    return *this;
  }
  if (parent.attach_type_ == AttachType::kInline) {
    Fail("compute_at", absl::StrCat(parent.name(), " is inlined and has no loops to compute in"));
    return *this;
  }
  if (!parent.CheckLeaf("compute_at", scope)) return *this;
  if (op_->kind == te::OpKind::kPlaceholder) {
    Fail("compute_at", "a placeholder is an input and is not computed");
    return *this;
  }
  for (Stage* s = &parent; s != nullptr; s = s->attach_stage_) {
    if (s == this) {
      Fail("compute_at",
           absl::StrCat("cycle: ", parent.name(), " is itself computed inside ", name()));
      return *this;
    }
  }
  attach_type_ = AttachType::kScope;
  attach_stage_ = &parent;
  attach_ivar_ = scope;
  return *this;
}

Stage& Stage::compute_inline() {
  if (op_->kind == te::OpKind::kPlaceholder) {
    Fail("compute_inline", "a placeholder is an input and cannot be inlined");
    return *this;
  }
  if (!op_->reduce_axis.empty()) {
    Fail("compute_inline", "cannot inline a reduction (it needs its own loops and storage)");
    return *this;
  }
  for (const auto& stage : schedule_->stages) {
    if (stage->attach_stage_ == this) {
      Fail("compute_inline", absl::StrCat("stage ", stage->name(),
                                          " is computed at one of its "
                                          "loops"));
      return *this;
    }
  }
  attach_type_ = AttachType::kInline;
  attach_stage_ = nullptr;
  attach_ivar_ = ir::IterVar();
  return *this;
}

Stage& Stage::compute_root() {
  attach_type_ = AttachType::kRoot;
  attach_stage_ = nullptr;
  attach_ivar_ = ir::IterVar();
  return *this;
}

Stage& Stage::SetKind(const char* primitive, const ir::IterVar& axis, ir::ForKind kind) {
  if (!CheckLeaf(primitive, axis)) return *this;
  if (IsReduceDerived(axis) && kind != ir::ForKind::kUnrolled) {
    Fail(primitive, absl::StrCat("cannot ", primitive, " reduction axis ", axis->var.name(),
                                 " (iterations would race on the output)"));
    return *this;
  }
  IterVarAttr& attr = MutableAttr(axis);
  if (attr.kind != ir::ForKind::kSerial && attr.kind != kind) {
    Fail(primitive, absl::StrCat("axis ", axis->var.name(), " is already ",
                                 attr.kind == ir::ForKind::kThreadBinding
                                     ? "bound to " + attr.bind_thread->thread_tag
                                     : std::string(ir::ForKindName(attr.kind))));
    return *this;
  }
  attr.kind = kind;
  return *this;
}

Stage& Stage::parallel(const ir::IterVar& axis) {
  return SetKind("parallel", axis, ir::ForKind::kParallel);
}

Stage& Stage::vectorize(const ir::IterVar& axis) {
  return SetKind("vectorize", axis, ir::ForKind::kVectorized);
}

Stage& Stage::unroll(const ir::IterVar& axis) {
  return SetKind("unroll", axis, ir::ForKind::kUnrolled);
}

Stage& Stage::pragma(const ir::IterVar& axis, const std::string& name) {
  if (!CheckLeaf("pragma", axis)) return *this;
  if (name.empty()) {
    Fail("pragma", "empty pragma name");
    return *this;
  }
  MutableAttr(axis).pragmas.push_back(name);
  return *this;
}

}  // namespace tunefarm::schedule
