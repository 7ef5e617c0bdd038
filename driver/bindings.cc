#include "driver/bindings.h"

#include <charconv>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "absl/strings/strip.h"
#include "compiler/ir/functor.h"
#include "compiler/ir/printer.h"
#include "compiler/ir/visitor.h"

namespace tunefarm::driver {
namespace {

// Folds integer expressions over constants and bound variables, as far as shapes need.
class IntEvaluator : public ir::ExprFunctor<absl::StatusOr<int64_t>(const ir::Expr&)> {
 public:
  explicit IntEvaluator(const ir::VarMap& values) : values_(values) {}

 protected:
  absl::StatusOr<int64_t> VisitExpr_(const ir::IntImmNode* op) override { return op->value; }
  absl::StatusOr<int64_t> VisitExpr_(const ir::VarNode* op) override {
    auto it = values_.find(op);
    if (it == values_.end()) {
      return absl::InvalidArgumentError(absl::StrCat("variable ", op->name, " has no value"));
    }
    return VisitExpr(it->second);
  }
  absl::StatusOr<int64_t> VisitExpr_(const ir::CastNode* op) override {
    if (!op->dtype.is_integral()) return VisitExprDefault_(op);
    return VisitExpr(op->value);
  }
#define TF_VISIT_BINARY(Name, fold)                                       \
  absl::StatusOr<int64_t> VisitExpr_(const ir::Name##Node* op) override { \
    absl::StatusOr<int64_t> a = VisitExpr(op->a);                         \
    if (!a.ok()) return a;                                                \
    absl::StatusOr<int64_t> b = VisitExpr(op->b);                         \
    if (!b.ok()) return b;                                                \
    return fold(*a, *b);                                                  \
  }
  TF_VISIT_BINARY(Add, Plus)
  TF_VISIT_BINARY(Sub, Minus)
  TF_VISIT_BINARY(Mul, Times)
  TF_VISIT_BINARY(Min, Smaller)
  TF_VISIT_BINARY(Max, Larger)
  TF_VISIT_BINARY(Div, TruncDiv)
  TF_VISIT_BINARY(Mod, TruncMod)
  TF_VISIT_BINARY(FloorDiv, FloorDiv)
  TF_VISIT_BINARY(FloorMod, FloorMod)
#undef TF_VISIT_BINARY
  absl::StatusOr<int64_t> VisitExprDefault_(const ir::ExprNode* op) override {
    (void)op;
    return absl::InvalidArgumentError("not an integer expression of the bound variables");
  }

 private:
  static absl::StatusOr<int64_t> Plus(int64_t a, int64_t b) { return a + b; }
  static absl::StatusOr<int64_t> Minus(int64_t a, int64_t b) { return a - b; }
  static absl::StatusOr<int64_t> Times(int64_t a, int64_t b) { return a * b; }
  static absl::StatusOr<int64_t> Smaller(int64_t a, int64_t b) { return std::min(a, b); }
  static absl::StatusOr<int64_t> Larger(int64_t a, int64_t b) { return std::max(a, b); }
  static absl::StatusOr<int64_t> TruncDiv(int64_t a, int64_t b) {
    if (b == 0) return absl::InvalidArgumentError("division by zero");
    return a / b;
  }
  static absl::StatusOr<int64_t> TruncMod(int64_t a, int64_t b) {
    if (b == 0) return absl::InvalidArgumentError("division by zero");
    return a % b;
  }
  static absl::StatusOr<int64_t> FloorDiv(int64_t a, int64_t b) {
    if (b == 0) return absl::InvalidArgumentError("division by zero");
    int64_t q = a / b;
    return (a % b != 0 && ((a < 0) != (b < 0))) ? q - 1 : q;
  }
  static absl::StatusOr<int64_t> FloorMod(int64_t a, int64_t b) {
    absl::StatusOr<int64_t> q = FloorDiv(a, b);
    if (!q.ok()) return q;
    return a - *q * b;
  }

  const ir::VarMap& values_;
};

// The variables each argument's shape mentions, with the first argument that mentions them.
std::vector<std::pair<ir::Var, std::string>> ShapeVars(const std::vector<te::Tensor>& args) {
  std::vector<std::pair<ir::Var, std::string>> result;
  for (const te::Tensor& t : args) {
    for (const ir::Expr& dim : t.shape()) {
      ir::PostOrderVisit(dim, [&](const ir::Expr& e) {
        if (!e.As<ir::VarNode>()) return;
        for (const auto& [v, name] : result) {
          if (v.get() == e.get()) return;
        }
        result.emplace_back(ir::Var(std::static_pointer_cast<const ir::VarNode>(e.node_ptr())),
                            t.name());
      });
    }
  }
  return result;
}

}  // namespace

absl::StatusOr<Bindings> ParseBindings(const std::string& text) {
  Bindings bindings;
  if (absl::StripAsciiWhitespace(text).empty()) return bindings;
  for (absl::string_view item : absl::StrSplit(text, ',')) {
    absl::string_view trimmed = absl::StripAsciiWhitespace(item);
    std::vector<absl::string_view> parts = absl::StrSplit(trimmed, absl::MaxSplits('=', 1));
    std::string name(parts.size() == 2 ? absl::StripAsciiWhitespace(parts[0]) : "");
    std::string value(parts.size() == 2 ? absl::StripAsciiWhitespace(parts[1]) : "");
    int64_t number = 0;
    auto [end, ec] = std::from_chars(value.data(), value.data() + value.size(), number);
    if (name.empty() || value.empty() || ec != std::errc() || end != value.data() + value.size()) {
      return absl::InvalidArgumentError(absl::StrCat(
          "malformed --bind item '", trimmed, "': expected NAME=INTEGER, as in --bind n=67,m=45"));
    }
    if (!bindings.emplace(name, number).second) {
      return absl::InvalidArgumentError(absl::StrCat("--bind gives ", name, " twice"));
    }
  }
  return bindings;
}

absl::StatusOr<ir::VarMap> ResolveBindings(const Bindings& bindings,
                                           const std::vector<ir::Var>& vars,
                                           const std::vector<te::Tensor>& args) {
  std::vector<std::string> known;
  for (const ir::Var& v : vars) {
    if (std::find(known.begin(), known.end(), v.name()) == known.end()) known.push_back(v.name());
  }
  ir::VarMap values;
  for (const auto& [name, value] : bindings) {
    if (std::find(known.begin(), known.end(), name) == known.end()) {
      return absl::InvalidArgumentError(
          absl::StrCat("--bind names unknown variable '", name, "'; the script's variables are: ",
                       known.empty() ? "(none)" : absl::StrJoin(known, ", ")));
    }
    for (const ir::Var& v : vars) {
      if (v.name() == name) values[v.get()] = ir::MakeConst(v.dtype(), static_cast<double>(value));
    }
  }
  for (const auto& [v, tensor] : ShapeVars(args)) {
    if (!values.count(v.get())) {
      return absl::InvalidArgumentError(absl::StrCat("variable ", v.name(), " (in the shape of ",
                                                     tensor, ") needs a value: --bind ", v.name(),
                                                     "=..."));
    }
  }
  return values;
}

absl::StatusOr<int64_t> EvaluateInt(const ir::Expr& e, const ir::VarMap& values) {
  return IntEvaluator(values).VisitExpr(e);
}

absl::StatusOr<std::vector<int64_t>> ConcreteShape(const te::Tensor& tensor,
                                                   const ir::VarMap& values) {
  std::vector<int64_t> shape;
  for (size_t i = 0; i < tensor.shape().size(); ++i) {
    const ir::Expr& dim = tensor.shape()[i];
    absl::StatusOr<int64_t> n = EvaluateInt(dim, values);
    if (!n.ok()) {
      return absl::InvalidArgumentError(absl::StrCat("shape of ", tensor.name(), " dimension ", i,
                                                     " (", ir::ToString(dim),
                                                     "): ", n.status().message()));
    }
    if (*n < 0) {
      return absl::InvalidArgumentError(absl::StrCat("shape of ", tensor.name(), " dimension ", i,
                                                     " (", ir::ToString(dim), ") is ", *n));
    }
    shape.push_back(*n);
  }
  return shape;
}

}  // namespace tunefarm::driver
