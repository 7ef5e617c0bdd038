#include "compiler/topi/epilogue.h"

#include "absl/strings/str_cat.h"
#include "compiler/topi/static_shape.h"

namespace tunefarm::topi {

absl::Status InlineEpilogue(schedule::Schedule& s, const te::Tensor& anchor, const te::Tensor& out,
                            const std::vector<te::Tensor>& keep, const char* op) {
  absl::StatusOr<std::vector<int64_t>> a = StaticShape(op, anchor);
  if (!a.ok()) return a.status();
  absl::StatusOr<std::vector<int64_t>> o = StaticShape(op, out);
  if (!o.ok()) return o.status();
  bool fits = a->size() == o->size();
  for (size_t d = 0; fits && d < a->size(); ++d) fits = (*o)[d] <= (*a)[d];
  if (!fits) {
    return absl::FailedPreconditionError(
        absl::StrCat(op, " epilogue: the output (", ShapeString(*o), ") must have the rank of ", op,
                     "'s own output (", ShapeString(*a), ") and no larger extents"));
  }
  for (schedule::Stage* stage : s.stages()) {
    const te::Operation& stage_op = stage->op();
    if (stage_op->kind != te::OpKind::kCompute || !stage_op->reduce_axis.empty()) continue;
    if (stage_op == out.op()) continue;
    bool kept = false;
    for (const te::Tensor& k : keep) kept = kept || (k.defined() && k.op() == stage_op);
    if (!kept) stage->compute_inline();
  }
  return s.error();
}

}  // namespace tunefarm::topi
