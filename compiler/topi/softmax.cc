#include "compiler/topi/softmax.h"

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
  auto x_at = [&](const std::vector<ir::Var>& row, ir::Expr col) {
    std::vector<ir::Expr> index = row_index(row);
    index.push_back(std::move(col));
    return x(index);
  };
  SoftmaxTensors t;
  t.x = x;
  ir::IterVar k = te::reduce_axis({Imm(0), Imm(xs->back())}, "k");
  absl::StatusOr<te::Tensor> max = te::compute(
      rows, [&](const std::vector<ir::Var>& i) { return te::max(x_at(i, k->var), {k}); },
      "softmax_max");
  if (!max.ok()) return max.status();
  t.max = *max;
  // The row of an element index: all but the last index (element 0 of a 1-D input's one row).
  auto row_of = [&](const std::vector<ir::Var>& i) {
    if (rank == 1) return std::vector<ir::Expr>{Imm(0)};
    return std::vector<ir::Expr>(i.begin(), i.end() - 1);
  };
  absl::StatusOr<te::Tensor> e = te::compute(
      shape,
      [&](const std::vector<ir::Var>& i) {
        return ir::Call(ir::Intrinsic::kExp,
                        {x(std::vector<ir::Expr>(i.begin(), i.end())) - t.max(row_of(i))});
      },
      "softmax_exp");
  if (!e.ok()) return e.status();
  t.exp = *e;
  ir::IterVar k2 = te::reduce_axis({Imm(0), Imm(xs->back())}, "k");
  absl::StatusOr<te::Tensor> sum = te::compute(
      rows,
      [&](const std::vector<ir::Var>& i) {
        std::vector<ir::Expr> index = row_index(i);
        index.push_back(k2->var);
        return te::sum(t.exp(index), {k2});
      },
      "softmax_sum");
  if (!sum.ok()) return sum.status();
  t.sum = *sum;
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
  if (row.defined()) {
    s[t.max].compute_at(out, row);
    if (config.store_exp) s[t.exp].compute_at(out, row);
    s[t.sum].compute_at(out, row);
  }
  if (!s.error().ok()) return s.error();
  return ScheduledOp{s, {t.x, t.out}};
}

}  // namespace tunefarm::topi
