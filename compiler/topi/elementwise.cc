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

// The broadcast shape of two shapes (aligned at the right; a missing leading dimension acts as
// 1), or the first dimension where they do not broadcast (-1 in `bad`).
std::vector<Expr> BroadcastShape(const std::vector<Expr>& a, const std::vector<Expr>& b, int* bad) {
  const size_t rank = std::max(a.size(), b.size());
  std::vector<Expr> shape(rank);
  *bad = -1;
  for (size_t d = 0; d < rank; ++d) {
    Expr da = d + a.size() >= rank ? a[d + a.size() - rank] : Imm(1);
    Expr db = d + b.size() >= rank ? b[d + b.size() - rank] : Imm(1);
    if (ir::IsConstInt(da, 1)) {
      shape[d] = db;
    } else if (ir::IsConstInt(db, 1) || ir::StructuralEqual(da, db)) {
      shape[d] = da;
    } else if (*bad < 0) {
      *bad = static_cast<int>(d);
    }
  }
  return shape;
}

absl::StatusOr<std::vector<Expr>> BroadcastShape(const te::Tensor& a, const te::Tensor& b,
                                                 const std::string& name) {
  int bad;
  std::vector<Expr> shape = BroadcastShape(a.shape(), b.shape(), &bad);
  if (bad >= 0) {
    return absl::InvalidArgumentError(absl::StrCat(name, ": shapes ", ShapeOf(a), " (", a.name(),
                                                   ") and ", ShapeOf(b), " (", b.name(),
                                                   ") do not broadcast at dimension ", bad));
  }
  return shape;
}

absl::StatusOr<te::Tensor> Binary(const te::Tensor& a, const te::Tensor& b, const std::string& name,
                                  const std::function<Expr(Expr, Expr)>& fn) {
  if (!a.defined() || !b.defined()) {
    return absl::InvalidArgumentError(absl::StrCat(name, ": undefined input"));
  }
  absl::StatusOr<std::vector<Expr>> shape = BroadcastShape(a, b, name);
  if (!shape.ok()) return shape.status();
  if (a.dtype() != b.dtype()) {
    return absl::InvalidArgumentError(
        absl::StrCat(name, ": ", a.name(), " and ", b.name(), " have different dtypes"));
  }
  return te::compute(
      *shape,
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

absl::StatusOr<te::Tensor> TriluCompute(const te::Tensor& x, bool upper, int64_t k) {
  if (!x.defined() || x.ndim() < 2) {
    return absl::InvalidArgumentError(absl::StrCat("trilu: needs a matrix or a batch of them, not ",
                                                   x.defined() ? ShapeOf(x) : "(undefined)"));
  }
  return te::compute(
      x.shape(),
      [&](const std::vector<ir::Var>& i) {
        const size_t n = i.size();
        // j - i in int64: k may lie beyond either side.
        const Expr diagonal =
            ir::Cast(ir::DataType::Int(64), i[n - 1]) - ir::Cast(ir::DataType::Int(64), i[n - 2]);
        const Expr kept = upper ? diagonal >= ir::IntImm(ir::DataType::Int(64), k)
                                : diagonal <= ir::IntImm(ir::DataType::Int(64), k);
        return ir::Select(kept, x(std::vector<Expr>(i.begin(), i.end())), ir::MakeZero(x.dtype()));
      },
      "trilu");
}

absl::StatusOr<te::Tensor> ModCompute(const te::Tensor& a, const te::Tensor& b, bool truncated) {
  if (truncated) return Binary(a, b, "mod", [](Expr x, Expr y) { return ir::TruncMod(x, y); });
  return Binary(a, b, "floor_mod", [](Expr x, Expr y) { return ir::FloorMod(x, y); });
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

absl::StatusOr<te::Tensor> CompareCompute(const te::Tensor& a, const te::Tensor& b, CompareFn fn) {
  return Binary(a, b, "compare", [fn](Expr x, Expr y) {
    switch (fn) {
      case CompareFn::kEqual:
        return x == y;
      case CompareFn::kLess:
        return x < y;
      case CompareFn::kLessEqual:
        return x <= y;
      case CompareFn::kGreater:
        return x > y;
      case CompareFn::kGreaterEqual:
        return x >= y;
    }
    return x == y;
  });
}

std::optional<CompareFn> CompareFnFromName(std::string_view name) {
  if (name == "equal") return CompareFn::kEqual;
  if (name == "less") return CompareFn::kLess;
  if (name == "less_equal") return CompareFn::kLessEqual;
  if (name == "greater") return CompareFn::kGreater;
  if (name == "greater_equal") return CompareFn::kGreaterEqual;
  return std::nullopt;
}

std::optional<LogicalFn> LogicalFnFromName(std::string_view name) {
  if (name == "and") return LogicalFn::kAnd;
  if (name == "or") return LogicalFn::kOr;
  if (name == "xor") return LogicalFn::kXor;
  return std::nullopt;
}

absl::StatusOr<te::Tensor> LogicalCompute(const te::Tensor& a, const te::Tensor& b, LogicalFn fn) {
  if (a.defined() && b.defined() && (!a.dtype().is_bool() || !b.dtype().is_bool())) {
    return absl::InvalidArgumentError("logical: both operands must be bool");
  }
  return Binary(a, b, "logical", [fn](Expr x, Expr y) {
    if (fn == LogicalFn::kAnd) return x && y;
    if (fn == LogicalFn::kOr) return x || y;
    return x != y;
  });
}

absl::StatusOr<te::Tensor> LogicalNotCompute(const te::Tensor& x) {
  if (!x.defined() || !x.dtype().is_bool()) {
    return absl::InvalidArgumentError("logical_not: the operand must be bool");
  }
  return te::compute(
      x.shape(),
      [&](const std::vector<ir::Var>& i) { return !x(std::vector<Expr>(i.begin(), i.end())); },
      "logical_not");
}

absl::StatusOr<te::Tensor> WhereCompute(const te::Tensor& cond, const te::Tensor& a,
                                        const te::Tensor& b) {
  if (!cond.defined() || !cond.dtype().is_bool() || !a.defined() || !b.defined()) {
    return absl::InvalidArgumentError("where: the condition must be bool");
  }
  if (a.dtype() != b.dtype()) {
    return absl::InvalidArgumentError(
        absl::StrCat("where: ", a.name(), " and ", b.name(), " have different dtypes"));
  }
  absl::StatusOr<std::vector<Expr>> values = BroadcastShape(a, b, "where");
  if (!values.ok()) return values.status();
  int bad;
  std::vector<Expr> shape = BroadcastShape(cond.shape(), *values, &bad);
  if (bad >= 0) {
    return absl::InvalidArgumentError(absl::StrCat("where: the condition ", ShapeOf(cond),
                                                   " does not broadcast at dimension ", bad));
  }
  return te::compute(
      shape,
      [&](const std::vector<ir::Var>& i) {
        return ir::Select(cond(BroadcastIndex(cond, i)), a(BroadcastIndex(a, i)),
                          b(BroadcastIndex(b, i)));
      },
      "where");
}

absl::StatusOr<te::Tensor> CastCompute(const te::Tensor& x, ir::DataType dtype) {
  if (!x.defined()) return absl::InvalidArgumentError("cast: undefined input");
  return te::compute(
      x.shape(),
      [&](const std::vector<ir::Var>& i) {
        Expr v = x(std::vector<Expr>(i.begin(), i.end()));
        if (dtype.is_bool()) return v != ir::MakeZero(v.dtype());
        return ir::Cast(dtype, v);
      },
      "cast");
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
