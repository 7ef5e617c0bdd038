#include "compiler/topi/elementwise.h"

#include <functional>
#include <string>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "compiler/ir/op.h"
#include "compiler/ir/printer.h"
#include "compiler/ir/structural_equal.h"
#include "compiler/topi/static_shape.h"

namespace tunefarm::topi {
namespace {

using ir::Expr;

std::string ShapeOf(const te::Tensor& t) {
  return absl::StrJoin(t.shape(), "x",
                       [](std::string* out, const Expr& e) { out->append(ir::ToString(e)); });
}

// out[i] = fn(x[i]) over x's shape.
absl::StatusOr<te::Tensor> Unary(const te::Tensor& x, const std::string& name,
                                 const std::function<Expr(Expr)>& fn) {
  if (!x.defined()) return absl::InvalidArgumentError(absl::StrCat(name, ": undefined input"));
  return te::compute(
      x.shape(),
      [&](const std::vector<ir::Var>& i) { return fn(x(std::vector<Expr>(i.begin(), i.end()))); },
      name);
}

// The index into `t` (of rank <= out rank, aligned at the right) for output index `i`:
// broadcast dimensions of extent 1 read element 0.
std::vector<Expr> BroadcastIndex(const te::Tensor& t, const std::vector<ir::Var>& i) {
  std::vector<Expr> index;
  const size_t offset = i.size() - t.ndim();
  for (size_t d = 0; d < t.ndim(); ++d) {
    bool stretched = ir::IsConstInt(t.shape()[d], 1);
    index.push_back(stretched ? Imm(0) : Expr(i[offset + d]));
  }
  return index;
}

absl::StatusOr<te::Tensor> Binary(const te::Tensor& a, const te::Tensor& b, const std::string& name,
                                  const std::function<Expr(Expr, Expr)>& fn) {
  if (!a.defined() || !b.defined()) {
    return absl::InvalidArgumentError(absl::StrCat(name, ": undefined input"));
  }
  const size_t rank = std::max(a.ndim(), b.ndim());
  std::vector<Expr> shape(rank);
  for (size_t d = 0; d < rank; ++d) {
    // Aligned at the right: a missing leading dimension acts as 1.
    Expr da = d + a.ndim() >= rank ? a.shape()[d + a.ndim() - rank] : Imm(1);
    Expr db = d + b.ndim() >= rank ? b.shape()[d + b.ndim() - rank] : Imm(1);
    if (ir::IsConstInt(da, 1)) {
      shape[d] = db;
    } else if (ir::IsConstInt(db, 1) || ir::StructuralEqual(da, db)) {
      shape[d] = da;
    } else {
      return absl::InvalidArgumentError(absl::StrCat(name, ": shapes ", ShapeOf(a), " (", a.name(),
                                                     ") and ", ShapeOf(b), " (", b.name(),
                                                     ") do not broadcast at dimension ", d));
    }
  }
  if (a.dtype() != b.dtype()) {
    return absl::InvalidArgumentError(
        absl::StrCat(name, ": ", a.name(), " and ", b.name(), " have different dtypes"));
  }
  return te::compute(
      shape,
      [&](const std::vector<ir::Var>& i) {
        return fn(a(BroadcastIndex(a, i)), b(BroadcastIndex(b, i)));
      },
      name);
}

}  // namespace

absl::StatusOr<te::Tensor> ReluCompute(const te::Tensor& x) {
  return Unary(x, "relu", [&](Expr v) { return ir::Max(v, ir::MakeZero(v.dtype())); });
}

absl::StatusOr<te::Tensor> BiasAddCompute(const te::Tensor& x, const te::Tensor& bias, int axis) {
  if (!x.defined() || !bias.defined() || bias.ndim() != 1 || axis < 0 ||
      static_cast<size_t>(axis) >= x.ndim() ||
      !ir::StructuralEqual(bias.shape()[0], x.shape()[axis]) || bias.dtype() != x.dtype()) {
    return absl::InvalidArgumentError(
        absl::StrCat("bias_add: bias ", bias.defined() ? ShapeOf(bias) : "(undefined)",
                     " must be one value per element of axis ", axis, " of ",
                     x.defined() ? ShapeOf(x) : "(undefined)", ", of the same dtype"));
  }
  return te::compute(
      x.shape(),
      [&](const std::vector<ir::Var>& i) {
        return x(std::vector<Expr>(i.begin(), i.end())) + bias({i[axis]});
      },
      "bias_add");
}

absl::StatusOr<te::Tensor> AddCompute(const te::Tensor& a, const te::Tensor& b) {
  return Binary(a, b, "add", [](Expr x, Expr y) { return x + y; });
}

absl::StatusOr<te::Tensor> MultiplyCompute(const te::Tensor& a, const te::Tensor& b) {
  return Binary(a, b, "multiply", [](Expr x, Expr y) { return x * y; });
}

absl::StatusOr<te::Tensor> SubtractCompute(const te::Tensor& a, const te::Tensor& b) {
  return Binary(a, b, "subtract", [](Expr x, Expr y) { return x - y; });
}

absl::StatusOr<te::Tensor> DivideCompute(const te::Tensor& a, const te::Tensor& b) {
  return Binary(a, b, "divide", [](Expr x, Expr y) { return ir::Div(x, y); });
}

absl::StatusOr<te::Tensor> PowCompute(const te::Tensor& a, const te::Tensor& b) {
  if (a.defined() && !a.dtype().is_float()) {
    return absl::InvalidArgumentError(
        absl::StrCat("pow: needs floats, ", a.name(), " is ", a.dtype().ToString()));
  }
  return Binary(a, b, "pow", [](Expr x, Expr y) { return ir::Call(ir::Intrinsic::kPow, {x, y}); });
}

absl::StatusOr<te::Tensor> MaximumCompute(const te::Tensor& a, const te::Tensor& b) {
  return Binary(a, b, "maximum", [](Expr x, Expr y) { return ir::Max(x, y); });
}

absl::StatusOr<te::Tensor> MinimumCompute(const te::Tensor& a, const te::Tensor& b) {
  return Binary(a, b, "minimum", [](Expr x, Expr y) { return ir::Min(x, y); });
}

absl::StatusOr<te::Tensor> PReluCompute(const te::Tensor& x, const te::Tensor& slope) {
  return Binary(x, slope, "prelu",
                [](Expr v, Expr s) { return ir::Select(v < ir::MakeZero(v.dtype()), s * v, v); });
}

absl::StatusOr<te::Tensor> ClipCompute(const te::Tensor& x, double lo, double hi) {
  if (!(lo <= hi)) {
    return absl::InvalidArgumentError(absl::StrCat("clip: lower bound ", lo, " > upper ", hi));
  }
  return Unary(x, "clip", [&](Expr v) {
    return ir::Min(ir::Max(v, ir::MakeConst(v.dtype(), lo)), ir::MakeConst(v.dtype(), hi));
  });
}

absl::StatusOr<te::Tensor> SigmoidCompute(const te::Tensor& x) {
  return Unary(x, "sigmoid", [](Expr v) { return ir::Call(ir::Intrinsic::kSigmoid, {v}); });
}

absl::StatusOr<te::Tensor> TanhCompute(const te::Tensor& x) {
  return Unary(x, "tanh", [](Expr v) { return ir::Call(ir::Intrinsic::kTanh, {v}); });
}

absl::StatusOr<ScheduledOp> ScheduleElementwise(const ElementwiseScheduleConfig& config,
                                                const std::vector<te::Tensor>& inputs,
                                                const te::Tensor& out) {
  schedule::Schedule s = schedule::Schedule::Create({out.op()});
  for (schedule::Stage* stage : s.stages()) {
    const te::Operation& op = stage->op();
    if (op->kind != te::OpKind::kCompute || op == out.op()) continue;
    bool is_input = false;
    for (const te::Tensor& in : inputs) is_input = is_input || in.op() == op;
    if (is_input) continue;
    if (!op->reduce_axis.empty()) {
      return absl::InvalidArgumentError(absl::StrCat("elementwise schedule of ", out.name(),
                                                     ": stage ", op->name, " is a reduction"));
    }
    stage->compute_inline();
  }
  ScheduleInjectiveStage(s[out], config);
  if (!s.error().ok()) return s.error();
  std::vector<te::Tensor> args = inputs;
  args.push_back(out);
  return ScheduledOp{s, args};
}

}  // namespace tunefarm::topi
