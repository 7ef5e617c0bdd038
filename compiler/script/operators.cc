// Arithmetic, comparison and logic operators of the script: Python semantics on plain numbers,
// the IR's operators (op.h) as soon as one operand is an expression or an axis.
#include <cmath>
#include <limits>

#include "absl/strings/str_cat.h"
#include "compiler/ir/op.h"
#include "compiler/script/evaluator.h"

namespace tunefarm::script {
namespace {

using ast::BinaryOp;

bool IsNumber(const Value& v) {
  return v.is(Value::Kind::kInt) || v.is(Value::Kind::kFloat) || v.is(Value::Kind::kBool);
}

double AsDouble(const Value& v) {
  if (v.is(Value::Kind::kFloat)) return v.as<double>();
  if (v.is(Value::Kind::kBool)) return v.as<bool>() ? 1.0 : 0.0;
  return static_cast<double>(v.as<int64_t>());
}

int64_t AsInt(const Value& v) {
  return v.is(Value::Kind::kBool) ? (v.as<bool>() ? 1 : 0) : v.as<int64_t>();
}

bool IsComparison(BinaryOp op) { return op >= BinaryOp::kLt && op <= BinaryOp::kNe; }

template <typename T>
bool Compare(BinaryOp op, T a, T b) {
  switch (op) {
    case BinaryOp::kLt:
      return a < b;
    case BinaryOp::kLe:
      return a <= b;
    case BinaryOp::kGt:
      return a > b;
    case BinaryOp::kGe:
      return a >= b;
    case BinaryOp::kEq:
      return a == b;
    default:
      return a != b;
  }
}

int64_t FloorDivInt(int64_t a, int64_t b) {
  int64_t q = a / b;
  return (a % b != 0 && ((a < 0) != (b < 0))) ? q - 1 : q;
}

std::optional<int64_t> IntArith(BinaryOp op, int64_t a, int64_t b) {
  int64_t r = 0;
  switch (op) {
    case BinaryOp::kAdd:
      return __builtin_add_overflow(a, b, &r) ? std::nullopt : std::optional(r);
    case BinaryOp::kSub:
      return __builtin_sub_overflow(a, b, &r) ? std::nullopt : std::optional(r);
    case BinaryOp::kMul:
      return __builtin_mul_overflow(a, b, &r) ? std::nullopt : std::optional(r);
    default:
      break;
  }
  if (a == std::numeric_limits<int64_t>::min() && b == -1) return std::nullopt;
  switch (op) {
    case BinaryOp::kFloorDiv:
      return FloorDivInt(a, b);
    default:
      return a - FloorDivInt(a, b) * b;  // kMod: Python's %, with the divisor's sign
  }
}

double FloatArith(BinaryOp op, double a, double b) {
  switch (op) {
    case BinaryOp::kAdd:
      return a + b;
    case BinaryOp::kSub:
      return a - b;
    case BinaryOp::kMul:
      return a * b;
    case BinaryOp::kDiv:
      return a / b;
    case BinaryOp::kFloorDiv:
      return std::floor(a / b);
    default:
      return a - std::floor(a / b) * b;
  }
}

// Float `//` and `%` have no IR node of their own: floor(a / b) and a - floor(a / b) * b.
ir::Expr FloatFloorDiv(const ir::Expr& a, const ir::Expr& b) {
  return ir::Call(ir::Intrinsic::kFloor, {ir::Div(a, b)});
}

}  // namespace

absl::StatusOr<Value> Evaluator::Binary(BinaryOp op, const Value& a, const Value& b, Pos pos) {
  if (IsNumber(a) && IsNumber(b)) return PlainBinary(op, a, b, pos);
  if (a.is(Value::Kind::kString) && b.is(Value::Kind::kString)) {
    const auto& x = a.as<std::string>();
    const auto& y = b.as<std::string>();
    if (op == BinaryOp::kAdd) return Value::String(x + y);
    if (IsComparison(op)) return Value::Bool(Compare(op, x, y));
  }
  std::optional<ir::Expr> x = AsExpr(a);
  std::optional<ir::Expr> y = AsExpr(b);
  if (!x || !y) {
    return Error(pos, absl::StrCat("unsupported operand types for ", ast::BinaryOpSpelling(op),
                                   ": ", TypeName(a), " and ", TypeName(b)));
  }
  return ExprBinary(op, *std::move(x), *std::move(y), pos);
}

absl::StatusOr<Value> Evaluator::PlainBinary(BinaryOp op, const Value& a, const Value& b, Pos pos) {
  bool is_float = a.is(Value::Kind::kFloat) || b.is(Value::Kind::kFloat);
  if (IsComparison(op)) {
    return Value::Bool(is_float ? Compare(op, AsDouble(a), AsDouble(b))
                                : Compare(op, AsInt(a), AsInt(b)));
  }
  if (op == BinaryOp::kAnd || op == BinaryOp::kOr) {
    bool truth = *Truthiness(a);
    return (truth == (op == BinaryOp::kAnd)) ? b : a;
  }
  bool divides = op == BinaryOp::kDiv || op == BinaryOp::kFloorDiv || op == BinaryOp::kMod;
  if (divides && AsDouble(b) == 0.0) return Error(pos, "division by zero");
  // Python: int / int is a float.
  if (is_float || op == BinaryOp::kDiv) {
    return Value::Float(FloatArith(op, AsDouble(a), AsDouble(b)));
  }
  std::optional<int64_t> r = IntArith(op, AsInt(a), AsInt(b));
  if (!r) return Error(pos, "integer overflow");
  return Value::Int(*r);
}

absl::StatusOr<Value> Evaluator::ExprBinary(BinaryOp op, ir::Expr a, ir::Expr b, Pos pos) {
  if (op == BinaryOp::kAnd || op == BinaryOp::kOr) {
    if (!a.dtype().is_bool() || !b.dtype().is_bool()) {
      return Error(pos, absl::StrCat("'", ast::BinaryOpSpelling(op),
                                     "' needs conditions (comparisons or bools), got ",
                                     a.dtype().ToString(), " and ", b.dtype().ToString()));
    }
    return Value::FromExpr(op == BinaryOp::kAnd ? a && b : a || b);
  }
  if (!IsComparison(op)) {
    // Arithmetic on conditions counts them as 0/1 integers.
    if (a.dtype().is_bool()) a = ir::Cast(ir::DataType::Int(32), a);
    if (b.dtype().is_bool()) b = ir::Cast(ir::DataType::Int(32), b);
  }
  bool is_float = a.dtype().is_float() || b.dtype().is_float();
  switch (op) {
    case BinaryOp::kAdd:
      return Value::FromExpr(a + b);
    case BinaryOp::kSub:
      return Value::FromExpr(a - b);
    case BinaryOp::kMul:
      return Value::FromExpr(a * b);
    case BinaryOp::kDiv:
      return Value::FromExpr(ir::Div(a, b));
    case BinaryOp::kFloorDiv:
      return Value::FromExpr(is_float ? FloatFloorDiv(a, b) : ir::FloorDiv(a, b));
    case BinaryOp::kMod: {
      if (!is_float) return Value::FromExpr(ir::FloorMod(a, b));
      return Value::FromExpr(a - FloatFloorDiv(a, b) * b);
    }
    case BinaryOp::kLt:
      return Value::FromExpr(a < b);
    case BinaryOp::kLe:
      return Value::FromExpr(a <= b);
    case BinaryOp::kGt:
      return Value::FromExpr(a > b);
    case BinaryOp::kGe:
      return Value::FromExpr(a >= b);
    case BinaryOp::kEq:
      return Value::FromExpr(a == b);
    case BinaryOp::kNe:
      return Value::FromExpr(a != b);
    default:
      break;
  }
  return Error(pos, "unsupported operator");
}

absl::StatusOr<Value> Evaluator::Unary(ast::UnaryOp op, const Value& v, Pos pos) {
  if (op == ast::UnaryOp::kNot) {
    if (std::optional<bool> truth = Truthiness(v)) return Value::Bool(!*truth);
    std::optional<ir::Expr> e = AsExpr(v);
    if (e && e->dtype().is_bool()) return Value::FromExpr(!*e);
    return Error(
        pos, absl::StrCat("'not' needs a condition (a comparison or a bool), got ", TypeName(v)));
  }
  if (IsNumber(v)) {
    if (v.is(Value::Kind::kFloat)) {
      return Value::Float(op == ast::UnaryOp::kNeg ? -v.as<double>() : v.as<double>());
    }
    int64_t x = AsInt(v);
    if (op == ast::UnaryOp::kPlus) return Value::Int(x);
    if (x == std::numeric_limits<int64_t>::min()) return Error(pos, "integer overflow");
    return Value::Int(-x);
  }
  std::optional<ir::Expr> e = AsExpr(v);
  if (!e) {
    const char* spelling = op == ast::UnaryOp::kNeg ? "-" : "+";
    return Error(pos, absl::StrCat("bad operand type for unary ", spelling, ": ", TypeName(v)));
  }
  if (e->dtype().is_bool()) e = ir::Cast(ir::DataType::Int(32), *e);
  return Value::FromExpr(op == ast::UnaryOp::kNeg ? -*e : *e);
}

}  // namespace tunefarm::script
