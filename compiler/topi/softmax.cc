#include "compiler/topi/softmax.h"

#include <functional>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "compiler/ir/op.h"
#include "compiler/topi/injective_schedule.h"
#include "compiler/topi/loop_tiling.h"
#include "compiler/topi/static_shape.h"

namespace tunefarm::topi {

absl::StatusOr<SoftmaxTensors> SoftmaxCompute(const te::Tensor& x) {
  absl::StatusOr<std::vector<int64_t>> xs = StaticShape("softmax", x);
  if (!xs.ok()) return xs.status();
  if (xs->empty()) return absl::InvalidArgumentError("softmax: the input is a scalar");
  const size_t rank = xs->size();
  std::vector<ir::Expr> shape, rows;
  for (size_t d = 0; d < rank; ++d) {
    shape.push_back(Imm((*xs)[d]));
    if (d + 1 < rank) rows.push_back(Imm((*xs)[d]));
  }
  if (rows.empty()) rows.push_back(Imm(1));  // a 1-D input is one row
  auto row_index = [&](const std::vector<ir::Var>& i) {
    return rank == 1 ? std::vector<ir::Expr>{} : std::vector<ir::Expr>(i.begin(), i.end());
  };
  SoftmaxTensors t;
  t.x = x;
  const int64_t n = xs->back(), lanes = kSoftmaxLanes;
  std::vector<ir::Expr> parts = rows;
  parts.push_back(Imm(lanes));
  // Element j * lanes + l of the row `i` (its last index the lane), through `read`, and `none`
  // past the row's end (the read itself clamped to the row, so it stays in bounds).
  auto lane_element = [&](const std::vector<ir::Var>& i, const ir::IterVar& j,
                          const std::function<ir::Expr(std::vector<ir::Expr>)>& read,
                          ir::Expr none) {
    ir::Expr col = j->var * Imm(lanes) + i.back();
    std::vector<ir::Expr> index = row_index(std::vector<ir::Var>(i.begin(), i.end() - 1));
    if (n % lanes == 0) {
      index.push_back(col);
      return read(index);
    }
    index.push_back(ir::Min(col, Imm(n - 1)));
    return ir::Select(col < Imm(n), read(index), none);
  };
  const ir::Expr steps = Imm((n + lanes - 1) / lanes);
  // The row of a partial or an element index: all but the last index (row 0 of a 1-D input).
  auto row_of = [&](const std::vector<ir::Var>& i) {
    if (rank == 1) return std::vector<ir::Expr>{Imm(0)};
    return std::vector<ir::Expr>(i.begin(), i.end() - 1);
  };
  auto lane_of = [&](const std::vector<ir::Var>& i, const ir::IterVar& l) {
    std::vector<ir::Expr> index = row_index(i);
    if (rank == 1) index = {Imm(0)};
    index.push_back(l->var);
    return index;
  };
  using Reducer = std::function<ir::Expr(ir::Expr, const std::vector<ir::IterVar>&)>;
  // `source`'s rows reduced in two steps (partials per lane, then the lanes), `none` standing for
  // a ragged row's missing elements; the two stages are named `name`_part and `name`.
  auto reduce_rows = [&](const te::Tensor& source, ir::Expr none, const Reducer& reduce,
                         const std::string& name, te::Tensor* part,
                         te::Tensor* total) -> absl::Status {
    auto read = [&](std::vector<ir::Expr> index) { return source(index); };
    ir::IterVar j = te::reduce_axis({Imm(0), steps}, "j");
    absl::StatusOr<te::Tensor> p = te::compute(
        parts,
        [&](const std::vector<ir::Var>& i) { return reduce(lane_element(i, j, read, none), {j}); },
        name + "_part");
    if (!p.ok()) return p.status();
    *part = *p;
    ir::IterVar l = te::reduce_axis({Imm(0), Imm(lanes)}, "l");
    absl::StatusOr<te::Tensor> r = te::compute(
        rows, [&](const std::vector<ir::Var>& i) { return reduce((*part)(lane_of(i, l)), {l}); },
        name);
    if (!r.ok()) return r.status();
    *total = *r;
    return absl::OkStatus();
  };
  const Reducer max_of = [](ir::Expr e, const std::vector<ir::IterVar>& axes) {
    return te::max(std::move(e), axes);
  };
  const Reducer sum_of = [](ir::Expr e, const std::vector<ir::IterVar>& axes) {
    return te::sum(std::move(e), axes);
  };
  if (absl::Status st =
          reduce_rows(x, ir::MinValue(x.dtype()), max_of, "softmax_max", &t.max_part, &t.max);
      !st.ok()) {
    return st;
  }
  absl::StatusOr<te::Tensor> e = te::compute(
      shape,
      [&](const std::vector<ir::Var>& i) {
        return ir::Call(ir::Intrinsic::kExp,
                        {x(std::vector<ir::Expr>(i.begin(), i.end())) - t.max(row_of(i))});
      },
      "softmax_exp");
  if (!e.ok()) return e.status();
  t.exp = *e;
  if (absl::Status st =
          reduce_rows(t.exp, ir::MakeZero(x.dtype()), sum_of, "softmax_sum", &t.sum_part, &t.sum);
      !st.ok()) {
    return st;
  }
  absl::StatusOr<te::Tensor> out = te::compute(
      shape,
      [&](const std::vector<ir::Var>& i) {
        return ir::Div(t.exp(std::vector<ir::Expr>(i.begin(), i.end())), t.sum(row_of(i)));
      },
      "softmax");
  if (!out.ok()) return out.status();
  t.out = *out;
  return t;
}

std::string SoftmaxScheduleConfig::ToString() const {
  return absl::StrCat(vector_lanes, " lanes", store_exp ? ", stored exp" : ", recomputed exp",
                      parallel ? ", parallel" : "");
}

SoftmaxScheduleConfig DefaultSoftmaxConfig(const SoftmaxTensors& t, const CpuInfo& cpu) {
  SoftmaxScheduleConfig c;
  c.vector_lanes = cpu.Lanes(4);
  int64_t elements = 1;
  for (const ir::Expr& d : t.out.shape()) elements *= ir::AsConstInt(d).value_or(1);
  c.parallel = cpu.cores > 1 && elements >= (1 << 14);
  return c;
}

absl::StatusOr<ScheduledOp> ScheduleSoftmax(const SoftmaxScheduleConfig& config,
                                            const SoftmaxTensors& t) {
  if (config.vector_lanes <= 0) {
    return absl::InvalidArgumentError(
        absl::StrCat("softmax schedule: vector_lanes ", config.vector_lanes, " must be positive"));
  }
  schedule::Schedule s = schedule::Schedule::Create({t.out.op()});
  schedule::Stage& out = s[t.out];
  const auto axes = out.op()->axis;
  // Rows fused into one loop; every pass of a row is computed inside it.
  std::vector<ir::IterVar> row_axes(axes.begin(), axes.end() - 1);
  ir::IterVar row = FuseOuter(out, row_axes, config.parallel && !row_axes.empty());
  auto vectorize_last = [&](schedule::Stage& stage) {
    const int64_t extent = AxisExtent(stage.op()->axis.back());
    if (extent < config.vector_lanes || config.vector_lanes < 2) return;
    ir::IterVar lane;
    SplitBy(stage, stage.op()->axis.back(), config.vector_lanes, &lane);
    stage.vectorize(lane);
  };
  vectorize_last(out);
  if (config.store_exp) {
    vectorize_last(s[t.exp]);
  } else {
    s[t.exp].compute_inline();
  }
  // A partial's lanes are vectors, its steps along the row the loop around them.
  for (const te::Tensor& part : {t.max_part, t.sum_part}) {
    schedule::Stage& stage = s[part];
    const auto lanes = stage.op()->axis;
    const auto steps = stage.op()->reduce_axis;
    if (config.vector_lanes < 2 || kSoftmaxLanes % config.vector_lanes != 0) continue;
    auto [vectors, lane] = SplitVectors(stage, lanes.back(), config.vector_lanes);
    Reorder(stage, {steps[0], vectors, lane});
  }
  if (row.defined()) {
    s[t.max_part].compute_at(out, row);
    s[t.max].compute_at(out, row);
    if (config.store_exp) s[t.exp].compute_at(out, row);
    s[t.sum_part].compute_at(out, row);
    s[t.sum].compute_at(out, row);
  }
  if (!s.error().ok()) return s.error();
  return ScheduledOp{s, {t.x, t.out}};
}

}  // namespace tunefarm::topi
