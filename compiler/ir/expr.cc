#include "compiler/ir/expr.h"

#include <algorithm>
#include <cmath>

#include "compiler/ir/check.h"

namespace tunefarm::ir {
namespace {

template <typename T, typename... Args>
Expr NewExpr(Args&&... args) {
  return Expr(std::make_shared<const T>(std::forward<Args>(args)...));
}

void CheckSameType(const Expr& a, const Expr& b, const char* op) {
  TF_CHECK(a.defined() && b.defined()) << op << ": undefined operand";
  TF_CHECK(a.dtype() == b.dtype())
      << op << ": operand types differ: " << a.dtype().ToString() << " vs " << b.dtype().ToString();
}

struct IntrinsicInfo {
  Intrinsic op;
  const char* name;
  int num_args;
};

constexpr IntrinsicInfo kIntrinsics[] = {
    {Intrinsic::kExp, "exp", 1},
    {Intrinsic::kLog, "log", 1},
    {Intrinsic::kSqrt, "sqrt", 1},
    {Intrinsic::kTanh, "tanh", 1},
    {Intrinsic::kSigmoid, "sigmoid", 1},
    {Intrinsic::kFabs, "fabs", 1},
    {Intrinsic::kPow, "pow", 2},
    {Intrinsic::kFloor, "floor", 1},
    {Intrinsic::kCeil, "ceil", 1},
    {Intrinsic::kErf, "erf", 1},
    {Intrinsic::kRound, "round", 1},
    {Intrinsic::kSin, "sin", 1},
    {Intrinsic::kCos, "cos", 1},
    {Intrinsic::kTan, "tan", 1},
    {Intrinsic::kSinh, "sinh", 1},
    {Intrinsic::kCosh, "cosh", 1},
    {Intrinsic::kAsin, "asin", 1},
    {Intrinsic::kAcos, "acos", 1},
    {Intrinsic::kAtan, "atan", 1},
    {Intrinsic::kAsinh, "asinh", 1},
    {Intrinsic::kAcosh, "acosh", 1},
    {Intrinsic::kAtanh, "atanh", 1},
    {Intrinsic::kLikely, "likely", 1},
    {Intrinsic::kIfThenElse, "if_then_else", 3},
    {Intrinsic::kSyncThreads, "sync_threads", 0},
    {Intrinsic::kDot4Add, "dot4_add", 3},
};

const IntrinsicInfo& InfoOf(Intrinsic op) {
  for (const auto& info : kIntrinsics) {
    if (info.op == op) return info;
  }
  TF_UNREACHABLE() << "intrinsic " << static_cast<int>(op);
}

}  // namespace

Expr::Expr(int value) : Expr(IntImm(DataType::Int(32), value)) {}
Expr::Expr(int64_t value) : Expr(IntImm(DataType::Int(64), value)) {}
Expr::Expr(double value) : Expr(FloatImm(DataType::Float(32), value)) {}
Expr::Expr(float value) : Expr(FloatImm(DataType::Float(32), value)) {}

Var::Var(std::string name, DataType dtype)
    : Expr(std::make_shared<const VarNode>(dtype, std::move(name))) {}
Var::Var(std::shared_ptr<const VarNode> node) : Expr(std::move(node)) {}
const VarNode* Var::get() const { return static_cast<const VarNode*>(Expr::get()); }
const std::string& Var::name() const { return get()->name; }

IterVar::IterVar(Range dom, Var var, IterVarType type, std::string thread_tag)
    : node_(std::make_shared<const IterVarNode>(
          IterVarNode{std::move(dom), std::move(var), type, std::move(thread_tag)})) {}

Buffer::Buffer(std::string name, DataType dtype, std::vector<Expr> shape, std::string scope,
               std::weak_ptr<const void> producer) {
  Var data(name, DataType::Handle());
  node_ = std::make_shared<const BufferNode>(BufferNode{std::move(name), dtype, std::move(shape),
                                                        std::move(data), std::move(scope),
                                                        std::move(producer)});
}

CommReducer MakeCommReducer(std::string name, Var lhs, Var rhs, Expr result, Expr identity) {
  TF_CHECK(result.dtype() == identity.dtype()) << "reducer " << name << ": identity type";
  return std::make_shared<const CommReducerNode>(CommReducerNode{
      std::move(name), std::move(lhs), std::move(rhs), std::move(result), std::move(identity)});
}

const char* IntrinsicName(Intrinsic op) { return InfoOf(op).name; }

std::optional<Intrinsic> IntrinsicFromName(std::string_view name) {
  for (const auto& info : kIntrinsics) {
    if (name == info.name) return info.op;
  }
  return std::nullopt;
}

Expr IntImmNode::Make(DataType t, int64_t value) {
  TF_CHECK(t.is_integral() && t.is_scalar()) << "IntImm of type " << t.ToString();
  if (t.is_bool()) value = value != 0;
  return NewExpr<IntImmNode>(t, value);
}

Expr FloatImmNode::Make(DataType t, double value) {
  TF_CHECK(t.is_float() && t.is_scalar()) << "FloatImm of type " << t.ToString();
  if (t.bits() == 32) value = static_cast<float>(value);
  return NewExpr<FloatImmNode>(t, value);
}

Expr StringImmNode::Make(std::string value) { return NewExpr<StringImmNode>(std::move(value)); }

// Arithmetic keeps the operand type; comparisons and logic give bool of the same lanes.
#define TF_DEFINE_ARITH(Name)                                  \
  Expr Name##Node::Make(Expr a, Expr b) {                      \
    CheckSameType(a, b, #Name);                                \
    DataType t = a.dtype();                                    \
    return NewExpr<Name##Node>(t, std::move(a), std::move(b)); \
  }
#define TF_DEFINE_COMPARE(Name)                                \
  Expr Name##Node::Make(Expr a, Expr b) {                      \
    CheckSameType(a, b, #Name);                                \
    DataType t = DataType::Bool(a.dtype().lanes());            \
    return NewExpr<Name##Node>(t, std::move(a), std::move(b)); \
  }
#define TF_DEFINE_LOGIC(Name)                                                 \
  Expr Name##Node::Make(Expr a, Expr b) {                                     \
    CheckSameType(a, b, #Name);                                               \
    TF_CHECK(a.dtype().is_bool()) << #Name << " of " << a.dtype().ToString(); \
    DataType t = a.dtype();                                                   \
    return NewExpr<Name##Node>(t, std::move(a), std::move(b));                \
  }
TF_DEFINE_ARITH(Add)
TF_DEFINE_ARITH(Sub)
TF_DEFINE_ARITH(Mul)
TF_DEFINE_ARITH(Div)
TF_DEFINE_ARITH(Mod)
TF_DEFINE_ARITH(FloorDiv)
TF_DEFINE_ARITH(FloorMod)
TF_DEFINE_ARITH(Min)
TF_DEFINE_ARITH(Max)
TF_DEFINE_COMPARE(EQ)
TF_DEFINE_COMPARE(NE)
TF_DEFINE_COMPARE(LT)
TF_DEFINE_COMPARE(LE)
TF_DEFINE_COMPARE(GT)
TF_DEFINE_COMPARE(GE)
TF_DEFINE_LOGIC(And)
TF_DEFINE_LOGIC(Or)
#undef TF_DEFINE_ARITH
#undef TF_DEFINE_COMPARE
#undef TF_DEFINE_LOGIC

Expr NotNode::Make(Expr a) {
  TF_CHECK(a.defined() && a.dtype().is_bool()) << "Not of non-bool";
  DataType t = a.dtype();
  return NewExpr<NotNode>(t, std::move(a));
}

Expr SelectNode::Make(Expr condition, Expr true_value, Expr false_value) {
  CheckSameType(true_value, false_value, "Select");
  TF_CHECK(condition.dtype().is_bool()) << "Select condition is " << condition.dtype().ToString();
  TF_CHECK(condition.dtype().lanes() == 1 ||
           condition.dtype().lanes() == true_value.dtype().lanes())
      << "Select condition lanes";
  DataType t = true_value.dtype();
  return NewExpr<SelectNode>(t, std::move(condition), std::move(true_value),
                             std::move(false_value));
}

Expr CastNode::Make(DataType t, Expr value) {
  TF_CHECK(value.defined() && value.dtype().lanes() == t.lanes())
      << "Cast to " << t.ToString() << " changes lanes";
  return NewExpr<CastNode>(t, std::move(value));
}

Expr RampNode::Make(Expr base, Expr stride, int lanes) {
  CheckSameType(base, stride, "Ramp");
  TF_CHECK(base.dtype().is_scalar() && lanes > 1) << "Ramp of " << lanes << " lanes";
  DataType t = base.dtype().with_lanes(lanes);
  return NewExpr<RampNode>(t, std::move(base), std::move(stride), lanes);
}

Expr BroadcastNode::Make(Expr value, int lanes) {
  TF_CHECK(value.defined() && value.dtype().is_scalar() && lanes > 1) << "Broadcast";
  DataType t = value.dtype().with_lanes(lanes);
  return NewExpr<BroadcastNode>(t, std::move(value), lanes);
}

Expr LetNode::Make(Var var, Expr value, Expr body) {
  TF_CHECK(var.dtype() == value.dtype()) << "Let " << var.name() << ": type";
  DataType t = body.dtype();
  return NewExpr<LetNode>(t, std::move(var), std::move(value), std::move(body));
}

Expr CallNode::Make(Intrinsic op, std::vector<Expr> args) {
  const IntrinsicInfo& info = InfoOf(op);
  TF_CHECK(static_cast<int>(args.size()) == info.num_args)
      << info.name << " takes " << info.num_args << " arguments, got " << args.size();
  DataType t = DataType::Void();
  switch (op) {
    case Intrinsic::kSyncThreads:
      t = DataType::Int(32);
      break;
    case Intrinsic::kLikely:
      TF_CHECK(args[0].dtype().is_bool()) << "likely of non-bool";
      t = args[0].dtype();
      break;
    case Intrinsic::kIfThenElse:
      TF_CHECK(args[0].dtype().is_bool()) << "if_then_else condition";
      CheckSameType(args[1], args[2], "if_then_else");
      t = args[1].dtype();
      break;
    case Intrinsic::kDot4Add: {
      const DataType acc = args[0].dtype(), a = args[1].dtype(), b = args[2].dtype();
      TF_CHECK(acc.is_int() && acc.bits() == 32) << "dot4_add accumulator " << acc.ToString();
      for (const DataType& x : {a, b}) {
        TF_CHECK(x.is_integral() && x.bits() == 8) << "dot4_add operand " << x.ToString();
      }
      TF_CHECK(b.lanes() == 4 * acc.lanes())
          << "dot4_add: " << b.lanes() << " lanes for " << acc.lanes() << " sums";
      TF_CHECK(a.lanes() == b.lanes() || a.lanes() == 4) << "dot4_add: a has " << a.lanes();
      t = acc;
      break;
    }
    case Intrinsic::kPow:
      CheckSameType(args[0], args[1], "pow");
      [[fallthrough]];
    default:
      TF_CHECK(args[0].dtype().is_float()) << info.name << " of " << args[0].dtype().ToString();
      t = args[0].dtype();
  }
  return NewExpr<CallNode>(t, op, std::move(args));
}

Expr BufferLoadNode::Make(Buffer buffer, std::vector<Expr> indices) {
  TF_CHECK(buffer.defined()) << "BufferLoad of undefined buffer";
  TF_CHECK(indices.size() == buffer->shape.size())
      << "BufferLoad " << buffer->name << ": " << indices.size() << " indices for rank "
      << buffer->shape.size();
  // A vector index (a tensorized access) reads that many elements.
  int lanes = 1;
  for (const Expr& i : indices) {
    const int l = i.dtype().lanes();
    TF_CHECK(l == 1 || lanes == 1 || l == lanes) << "BufferLoad " << buffer->name << ": lanes";
    lanes = std::max(lanes, l);
  }
  DataType t = buffer->dtype.with_lanes(lanes);
  return NewExpr<BufferLoadNode>(t, std::move(buffer), std::move(indices));
}

Expr LoadNode::Make(DataType t, Var buffer_var, Expr index) {
  TF_CHECK(index.dtype().lanes() == t.lanes()) << "Load " << buffer_var.name() << ": lanes";
  return NewExpr<LoadNode>(t, std::move(buffer_var), std::move(index));
}

Expr ReduceNode::Make(CommReducer combiner, Expr source, std::vector<IterVar> axis,
                      Expr condition) {
  TF_CHECK(combiner && source.dtype() == combiner->identity.dtype())
      << "Reduce: source type " << source.dtype().ToString() << " vs reducer";
  if (!condition.defined()) condition = IntImm(DataType::Bool(), 1);
  DataType t = source.dtype();
  return NewExpr<ReduceNode>(t, std::move(combiner), std::move(source), std::move(axis),
                             std::move(condition));
}

Expr IntImm(DataType t, int64_t value) { return IntImmNode::Make(t, value); }
Expr FloatImm(DataType t, double value) { return FloatImmNode::Make(t, value); }
Expr BoolImm(bool value) { return IntImmNode::Make(DataType::Bool(), value ? 1 : 0); }

Expr MakeConst(DataType t, double value) {
  DataType s = t.element_of();
  Expr scalar = s.is_float() ? FloatImm(s, value) : IntImm(s, static_cast<int64_t>(value));
  return t.is_vector() ? BroadcastNode::Make(scalar, t.lanes()) : scalar;
}
Expr MakeZero(DataType t) { return MakeConst(t, 0); }
Expr MakeOne(DataType t) { return MakeConst(t, 1); }

std::optional<int64_t> AsConstInt(const Expr& e) {
  if (const auto* imm = e.As<IntImmNode>()) return imm->value;
  return std::nullopt;
}

bool IsConstInt(const Expr& e, int64_t value) {
  auto v = AsConstInt(e);
  return v && *v == value;
}

}  // namespace tunefarm::ir
