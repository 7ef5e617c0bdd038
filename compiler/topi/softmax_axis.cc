#include "compiler/topi/softmax_axis.h"

#include <vector>

#include "absl/strings/str_cat.h"
#include "compiler/ir/op.h"
#include "compiler/topi/static_shape.h"

namespace tunefarm::topi {

namespace {

// The shapes and index maps of a computation over one axis of x: x's shape, the shape without the
// axis, the full index with `k` put back at the axis, and an element's index without it.
struct OverAxis {
  int axis = 0;
  int64_t extent = 0;
  std::vector<ir::Expr> shape, reduced;

  std::vector<ir::Expr> With(const std::vector<ir::Var>& i, ir::Expr k) const {
    std::vector<ir::Expr> index(i.begin(), i.end());
    index.insert(index.begin() + axis, std::move(k));
    return index;
  }
  std::vector<ir::Expr> Without(const std::vector<ir::Var>& i) const {
    std::vector<ir::Expr> index(i.begin(), i.end());
    index.erase(index.begin() + axis);
    return index;
  }
};

// Errors: a rank-0 or symbolic-shaped input, an axis out of range (named after `op`).
absl::StatusOr<OverAxis> AxisOf(const char* op, const te::Tensor& x, int axis) {
  absl::StatusOr<std::vector<int64_t>> xs = StaticShape(op, x);
  if (!xs.ok()) return xs.status();
  const int rank = static_cast<int>(xs->size());
  if (axis < 0 || axis >= rank) {
    return absl::InvalidArgumentError(
        absl::StrCat(op, ": axis ", axis, " is not an axis of ", ShapeString(*xs)));
  }
  OverAxis a;
  a.axis = axis;
  a.extent = (*xs)[axis];
  for (int d = 0; d < rank; ++d) {
    a.shape.push_back(Imm((*xs)[d]));
    if (d != axis) a.reduced.push_back(Imm((*xs)[d]));
  }
  return a;
}

std::vector<ir::Expr> Full(const std::vector<ir::Var>& i) { return {i.begin(), i.end()}; }

}  // namespace

absl::StatusOr<SoftmaxTensors> SoftmaxAxisCompute(const te::Tensor& x, int axis, bool log) {
  absl::StatusOr<OverAxis> a = AxisOf("softmax", x, axis);
  if (!a.ok()) return a.status();
  if (axis == static_cast<int>(a->shape.size()) - 1 && !log) return SoftmaxCompute(x);
  const std::vector<ir::Expr>& shape = a->shape;
  const std::vector<ir::Expr>& reduced = a->reduced;
  auto with_axis = [&](const std::vector<ir::Var>& i, ir::Expr k) {
    return a->With(i, std::move(k));
  };
  auto without_axis = [&](const std::vector<ir::Var>& i) { return a->Without(i); };
  auto full = Full;
  SoftmaxTensors t;
  t.x = x;
  ir::IterVar k = te::reduce_axis({Imm(0), Imm(a->extent)}, "k");
  absl::StatusOr<te::Tensor> max = te::compute(
      reduced, [&](const std::vector<ir::Var>& i) { return te::max(x(with_axis(i, k->var)), {k}); },
      "softmax_max");
  if (!max.ok()) return max.status();
  t.max = *max;
  absl::StatusOr<te::Tensor> e = te::compute(
      shape,
      [&](const std::vector<ir::Var>& i) {
        return ir::Call(ir::Intrinsic::kExp, {x(full(i)) - t.max(without_axis(i))});
      },
      "softmax_exp");
  if (!e.ok()) return e.status();
  t.exp = *e;
  ir::IterVar k2 = te::reduce_axis({Imm(0), Imm(a->extent)}, "k");
  absl::StatusOr<te::Tensor> sum = te::compute(
      reduced,
      [&](const std::vector<ir::Var>& i) { return te::sum(t.exp(with_axis(i, k2->var)), {k2}); },
      "softmax_sum");
  if (!sum.ok()) return sum.status();
  t.sum = *sum;
  absl::StatusOr<te::Tensor> out = te::compute(
      shape,
      [&](const std::vector<ir::Var>& i) {
        if (log) {
          return x(full(i)) - t.max(without_axis(i)) -
                 ir::Call(ir::Intrinsic::kLog, {t.sum(without_axis(i))});
        }
        return ir::Div(t.exp(full(i)), t.sum(without_axis(i)));
      },
      log ? "log_softmax" : "softmax");
  if (!out.ok()) return out.status();
  t.out = *out;
  return t;
}

absl::StatusOr<HardmaxTensors> HardmaxAxisCompute(const te::Tensor& x, int axis) {
  absl::StatusOr<OverAxis> a = AxisOf("hardmax", x, axis);
  if (!a.ok()) return a.status();
  const std::vector<ir::Expr>& shape = a->shape;
  const std::vector<ir::Expr>& reduced = a->reduced;
  auto with_axis = [&](const std::vector<ir::Var>& i, ir::Expr k) {
    return a->With(i, std::move(k));
  };
  auto without_axis = [&](const std::vector<ir::Var>& i) { return a->Without(i); };
  HardmaxTensors t;
  ir::IterVar k = te::reduce_axis({Imm(0), Imm(a->extent)}, "k");
  absl::StatusOr<te::Tensor> max = te::compute(
      reduced, [&](const std::vector<ir::Var>& i) { return te::max(x(with_axis(i, k->var)), {k}); },
      "hardmax_max");
  if (!max.ok()) return max.status();
  t.max = *max;
  // The smallest index holding the max: a min over the indices, the others counting as extent.
  ir::IterVar j = te::reduce_axis({Imm(0), Imm(a->extent)}, "j");
  absl::StatusOr<te::Tensor> first = te::compute(
      reduced,
      [&](const std::vector<ir::Var>& i) {
        ir::Expr at_max =
            x(with_axis(i, j->var)) == t.max(std::vector<ir::Expr>(i.begin(), i.end()));
        return te::min(ir::Select(at_max, ir::Expr(j->var), Imm(a->extent)), {j});
      },
      "hardmax_first");
  if (!first.ok()) return first.status();
  t.first = *first;
  absl::StatusOr<te::Tensor> out = te::compute(
      shape,
      [&](const std::vector<ir::Var>& i) {
        return ir::Select(ir::Expr(i[axis]) == t.first(without_axis(i)),
                          ir::MakeConst(x.dtype(), 1.0), ir::MakeZero(x.dtype()));
      },
      "hardmax");
  if (!out.ok()) return out.status();
  t.out = *out;
  return t;
}

}  // namespace tunefarm::topi
