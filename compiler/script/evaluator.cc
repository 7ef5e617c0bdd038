#include "compiler/script/evaluator.h"

#include "absl/strings/str_cat.h"

namespace tunefarm::script {
namespace {

// Deep enough for any real script (the parser bounds one expression's height at 1000); stops
// runaway recursion through lambdas. The stack guard stops it sooner where frames are larger.
constexpr int kMaxEvalDepth = 2000;

bool IsModuleName(absl::string_view name) { return name == "te" || name == "tvm" || name == "tir"; }

}  // namespace

NativeFn FindBuiltin(absl::string_view name) {
  if (NativeFn fn = FindNative(TeBuiltins(), name)) return fn;
  if (NativeFn fn = FindNative(IntrinBuiltins(), name)) return fn;
  return FindNative(ScheduleBuiltins(), name);
}

Evaluator::Evaluator(absl::string_view filename, Tuning* tuning,
                     const std::map<std::string, int64_t>* bindings)
    : filename_(filename), tuning_(tuning), bindings_(bindings) {
  envs_.push_back(std::make_unique<Env>(nullptr));
  if (tuning_ == nullptr) {
    own_tuning_ = std::make_unique<Tuning>(Tuning::Fallback());
    tuning_ = own_tuning_.get();
  }
}

std::optional<int64_t> Evaluator::BoundValue(const std::string& name) const {
  if (bindings_ == nullptr) return std::nullopt;
  auto it = bindings_->find(name);
  if (it == bindings_->end()) return std::nullopt;
  return it->second;
}

absl::Status Evaluator::Error(Pos pos, absl::string_view message) const {
  return ErrorAt(filename_, pos, message);
}

absl::Status Evaluator::Run(const ast::Module& module) {
  for (const ast::Stmt& stmt : module.body) {
    if (absl::Status st = Execute(stmt); !st.ok()) return st;
  }
  return absl::OkStatus();
}

absl::Status Evaluator::Execute(const ast::Stmt& stmt) {
  if (const auto* assign = std::get_if<ast::Assign>(&stmt.node)) return Assign(*assign, stmt.pos);
  const auto& expr = std::get<ast::ExprStatement>(stmt.node);
  return Eval(*expr.expr, *envs_.front()).status();
}

absl::Status Evaluator::Assign(const ast::Assign& assign, Pos pos) {
  absl::StatusOr<Value> value = Eval(*assign.value, *envs_.front());
  if (!value.ok()) return value.status();
  Env& globals = *envs_.front();
  if (!assign.unpack) {
    globals.Set(assign.targets.front(), *std::move(value));
    return absl::OkStatus();
  }
  if (!value->is(Value::Kind::kList)) {
    return Error(assign.value->pos, absl::StrCat("cannot unpack ", TypeName(*value), " into ",
                                                 assign.targets.size(), " names"));
  }
  const std::vector<Value>& items = value->items();
  if (items.size() != assign.targets.size()) {
    const char* how = items.size() < assign.targets.size() ? "not enough" : "too many";
    return Error(pos, absl::StrCat(how, " values to unpack (expected ", assign.targets.size(),
                                   ", got ", items.size(), ")"));
  }
  for (size_t i = 0; i < items.size(); ++i) globals.Set(assign.targets[i], items[i]);
  return absl::OkStatus();
}

absl::StatusOr<Value> Evaluator::Eval(const ast::Expr& expr, const Env& env) {
  if (depth_ >= kMaxEvalDepth || !stack_.HasRoom()) {
    return Error(expr.pos, "expressions or calls nested too deeply");
  }
  ++depth_;
  absl::StatusOr<Value> result = EvalNode(expr, env);
  --depth_;
  return result;
}

absl::StatusOr<Value> Evaluator::EvalNode(const ast::Expr& expr, const Env& env) {
  const Pos pos = expr.pos;
  return std::visit(
      [&](const auto& node) -> absl::StatusOr<Value> {
        using T = std::decay_t<decltype(node)>;
        if constexpr (std::is_same_v<T, ast::Name>) {
          return EvalName(node, pos, env);
        } else if constexpr (std::is_same_v<T, ast::IntLiteral>) {
          return Value::Int(node.value);
        } else if constexpr (std::is_same_v<T, ast::FloatLiteral>) {
          return Value::Float(node.value);
        } else if constexpr (std::is_same_v<T, ast::StringLiteral>) {
          return Value::String(node.value);
        } else if constexpr (std::is_same_v<T, ast::BoolLiteral>) {
          return Value::Bool(node.value);
        } else if constexpr (std::is_same_v<T, ast::NoneLiteral>) {
          return Value();
        } else if constexpr (std::is_same_v<T, ast::Sequence>) {
          return EvalSequence(node, env);
        } else if constexpr (std::is_same_v<T, ast::Call>) {
          return EvalCall(node, pos, env);
        } else if constexpr (std::is_same_v<T, ast::Index>) {
          return EvalIndex(node, pos, env);
        } else if constexpr (std::is_same_v<T, ast::Attribute>) {
          absl::StatusOr<Value> target = Eval(*node.target, env);
          if (!target.ok()) return target;
          return Attribute(*target, node.name, pos);
        } else if constexpr (std::is_same_v<T, ast::Binary>) {
          if (node.op == ast::BinaryOp::kAnd || node.op == ast::BinaryOp::kOr) {
            return EvalLogical(node, pos, env);
          }
          absl::StatusOr<Value> lhs = Eval(*node.lhs, env);
          if (!lhs.ok()) return lhs;
          absl::StatusOr<Value> rhs = Eval(*node.rhs, env);
          if (!rhs.ok()) return rhs;
          return Binary(node.op, *lhs, *rhs, pos);
        } else if constexpr (std::is_same_v<T, ast::Unary>) {
          absl::StatusOr<Value> operand = Eval(*node.operand, env);
          if (!operand.ok()) return operand;
          return Unary(node.op, *operand, pos);
        } else {
          static_assert(std::is_same_v<T, ast::Lambda>);
          return Value::FromClosure(Closure{node.params, node.body, &env});
        }
      },
      expr.node);
}

absl::StatusOr<Value> Evaluator::EvalName(const ast::Name& name, Pos pos, const Env& env) {
  if (const Value* v = env.Lookup(name.id)) return *v;
  if (NativeFn fn = FindBuiltin(name.id)) return Value::FromFunction(Function{name.id, fn, {}});
  if (IsModuleName(name.id)) return Value::FromModule(name.id);
  if (name.id == "cfg") return Value::Cfg();
  return Error(pos, absl::StrCat("name '", name.id, "' is not defined"));
}

absl::StatusOr<Value> Evaluator::EvalSequence(const ast::Sequence& seq, const Env& env) {
  std::vector<Value> items;
  items.reserve(seq.items.size());
  for (const ast::ExprPtr& item : seq.items) {
    absl::StatusOr<Value> v = Eval(*item, env);
    if (!v.ok()) return v;
    items.push_back(*std::move(v));
  }
  return Value::List(std::move(items), seq.is_tuple);
}

absl::StatusOr<Value> Evaluator::EvalCall(const ast::Call& call, Pos pos, const Env& env) {
  absl::StatusOr<Value> callee = Eval(*call.callee, env);
  if (!callee.ok()) return callee;
  std::vector<Arg> args;
  args.reserve(call.args.size());
  for (const ast::Argument& arg : call.args) {
    absl::StatusOr<Value> v = Eval(*arg.value, env);
    if (!v.ok()) return v;
    args.push_back(Arg{*std::move(v), arg.pos, arg.keyword});
  }
  return Call(*callee, std::move(args), pos);
}

absl::StatusOr<Value> Evaluator::Call(const Value& callee, std::vector<Arg> args, Pos pos) {
  absl::StatusOr<Value> result;
  if (callee.is(Value::Kind::kClosure)) {
    result = CallClosure(*callee.as<std::shared_ptr<const Closure>>(), args, pos);
  } else if (callee.is(Value::Kind::kFunction)) {
    const Function& f = callee.as<Function>();
    CallContext ctx{*this, f.name, pos, f.self ? *f.self : Value(), std::move(args)};
    result = f.fn(ctx);
  } else {
    result = Error(pos, absl::StrCat(TypeName(callee), " is not callable"));
  }
  return result;
}

absl::StatusOr<Value> Evaluator::CallClosure(const Closure& closure, const std::vector<Arg>& args,
                                             Pos pos) {
  for (const Arg& arg : args) {
    if (!arg.keyword.empty()) {
      return Error(arg.pos,
                   absl::StrCat("lambda got an unexpected keyword argument '", arg.keyword, "'"));
    }
  }
  if (args.size() != closure.params.size()) {
    return Error(pos, absl::StrCat("lambda takes ", closure.params.size(), " arguments (",
                                   args.size(), " given)"));
  }
  envs_.push_back(std::make_unique<Env>(closure.env));
  Env& scope = *envs_.back();
  for (size_t i = 0; i < args.size(); ++i) scope.Set(closure.params[i], args[i].value);
  return Eval(*closure.body, scope);
}

absl::StatusOr<Value> Evaluator::EvalIndex(const ast::Index& index, Pos pos, const Env& env) {
  absl::StatusOr<Value> target = Eval(*index.target, env);
  if (!target.ok()) return target;
  std::vector<Arg> indices;
  for (const ast::ExprPtr& e : index.indices) {
    absl::StatusOr<Value> v = Eval(*e, env);
    if (!v.ok()) return v;
    indices.push_back(Arg{*std::move(v), e->pos, ""});
  }
  return Subscript(*target, indices, pos);
}

absl::StatusOr<Value> Evaluator::EvalLogical(const ast::Binary& binary, Pos pos, const Env& env) {
  absl::StatusOr<Value> lhs = Eval(*binary.lhs, env);
  if (!lhs.ok()) return lhs;
  bool is_and = binary.op == ast::BinaryOp::kAnd;
  // Plain values short-circuit as in Python; expressions build && / ||.
  if (std::optional<bool> truth = Truthiness(*lhs)) {
    if (*truth != is_and) return lhs;
    return Eval(*binary.rhs, env);
  }
  absl::StatusOr<Value> rhs = Eval(*binary.rhs, env);
  if (!rhs.ok()) return rhs;
  return Binary(binary.op, *lhs, *rhs, pos);
}

}  // namespace tunefarm::script
