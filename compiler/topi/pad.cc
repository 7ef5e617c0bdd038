#include "compiler/topi/pad.h"

#include "absl/strings/str_cat.h"
#include "compiler/ir/op.h"
#include "compiler/topi/static_shape.h"

namespace tunefarm::topi {

absl::StatusOr<te::Tensor> PadCompute(const te::Tensor& t, const std::vector<int64_t>& before,
                                      const std::vector<int64_t>& after, ir::Expr value,
                                      const std::string& name) {
  absl::StatusOr<std::vector<int64_t>> shape = StaticShape(name, t);
  if (!shape.ok()) return shape.status();
  if (before.size() != shape->size() || after.size() != shape->size()) {
    return absl::InvalidArgumentError(absl::StrCat(name, ": padding has ", before.size(), " and ",
                                                   after.size(), " entries for rank ",
                                                   shape->size(), " tensor ", t.name()));
  }
  bool any = false;
  std::vector<ir::Expr> out_shape;
  for (size_t d = 0; d < shape->size(); ++d) {
    if (before[d] < 0 || after[d] < 0) {
      return absl::InvalidArgumentError(absl::StrCat(name, ": negative padding"));
    }
    any = any || before[d] > 0 || after[d] > 0;
    out_shape.push_back(Imm((*shape)[d] + before[d] + after[d]));
  }
  if (!any) return t;
  ir::Expr fill = ir::Cast(t.dtype(), value);
  auto body = [&](const std::vector<ir::Var>& i) {
    ir::Expr inside;
    std::vector<ir::Expr> index;
    for (size_t d = 0; d < i.size(); ++d) {
      index.push_back(before[d] > 0 ? i[d] - Imm(before[d]) : ir::Expr(i[d]));
      std::vector<ir::Expr> conds;
      if (before[d] > 0) conds.push_back(i[d] >= Imm(before[d]));
      if (after[d] > 0) conds.push_back(i[d] < Imm(before[d] + (*shape)[d]));
      for (ir::Expr& c : conds) inside = inside.defined() ? (inside && c) : c;
    }
    return ir::IfThenElse(inside, t(index), fill);
  };
  return te::compute(out_shape, body, name);
}

void SchedulePad(schedule::Schedule& s, const te::Tensor& padded, const te::Tensor& data,
                 bool inline_it, const InjectiveScheduleConfig& config) {
  if (padded.same_as(data)) return;
  if (inline_it) {
    s[padded].compute_inline();
  } else {
    ScheduleInjectiveStage(s[padded], config);
  }
}

absl::StatusOr<te::Tensor> PadWindowCompute(const te::Tensor& data, const Window2d& window,
                                            ir::Expr value, const std::string& name) {
  std::vector<int64_t> before(data.ndim(), 0), after(data.ndim(), 0);
  before[2] = window.pad_top;
  before[3] = window.pad_left;
  after[2] = window.pad_bottom;
  after[3] = window.pad_right;
  return PadCompute(data, before, after, std::move(value), name);
}

}  // namespace tunefarm::topi
