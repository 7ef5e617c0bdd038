#include "compiler/script/call_args.h"

#include "absl/strings/str_cat.h"
#include "compiler/ir/op.h"
#include "compiler/ir/type_names.h"
#include "compiler/script/evaluator.h"
#include "runtime/core/abbreviate.h"

namespace tunefarm::script {

absl::Status CallContext::Error(Pos at, absl::string_view message) const {
  return evaluator.Error(at, message);
}

absl::Status CallContext::TypeError(const Arg& arg, absl::string_view what,
                                    absl::string_view expected) const {
  return Error(arg.pos, absl::StrCat(name, ": ", what, " must be ", expected, ", got ",
                                     TypeName(arg.value)));
}

absl::StatusOr<std::vector<const Arg*>> BindArgs(const CallContext& ctx,
                                                 std::initializer_list<Param> params) {
  std::vector<Param> list(params);
  std::vector<const Arg*> bound(list.size(), nullptr);
  size_t positional = 0;
  for (const Arg& arg : ctx.args) {
    size_t slot = list.size();
    if (arg.keyword.empty()) {
      slot = positional++;
      if (slot >= list.size()) {
        return ctx.Error(arg.pos, absl::StrCat(ctx.name, "() takes at most ", list.size(),
                                               " arguments (", ctx.args.size(), " given)"));
      }
    } else {
      for (size_t i = 0; i < list.size(); ++i) {
        if (list[i].name == arg.keyword) slot = i;
      }
      if (slot == list.size()) {
        return ctx.Error(arg.pos, absl::StrCat(ctx.name, "() got an unexpected keyword argument '",
                                               arg.keyword, "'"));
      }
    }
    if (bound[slot] != nullptr) {
      return ctx.Error(arg.pos, absl::StrCat(ctx.name, "() got multiple values for argument '",
                                             list[slot].name, "'"));
    }
    bound[slot] = &arg;
  }
  for (size_t i = 0; i < list.size(); ++i) {
    if (list[i].required && bound[i] == nullptr) {
      return ctx.Error(absl::StrCat(ctx.name, "() missing required argument '", list[i].name, "'"));
    }
  }
  return bound;
}

absl::Status RequirePositional(const CallContext& ctx, size_t min_count) {
  for (const Arg& arg : ctx.args) {
    if (!arg.keyword.empty()) {
      return ctx.Error(arg.pos, absl::StrCat(ctx.name, "() got an unexpected keyword argument '",
                                             arg.keyword, "'"));
    }
  }
  if (ctx.args.size() < min_count) {
    return ctx.Error(absl::StrCat(ctx.name, "() takes at least ", min_count, " arguments (",
                                  ctx.args.size(), " given)"));
  }
  return absl::OkStatus();
}

absl::StatusOr<int64_t> ArgInt(const CallContext& ctx, const Arg& arg, absl::string_view what) {
  if (arg.value.is(Value::Kind::kInt)) return arg.value.as<int64_t>();
  if (arg.value.is(Value::Kind::kExpr)) {
    if (std::optional<int64_t> c = ir::AsConstInt(arg.value.as<ir::Expr>())) return *c;
  }
  return ctx.TypeError(arg, what, "an integer");
}

absl::StatusOr<std::string> ArgString(const CallContext& ctx, const Arg& arg,
                                      absl::string_view what) {
  if (arg.value.is(Value::Kind::kString)) return arg.value.as<std::string>();
  return ctx.TypeError(arg, what, "a string");
}

absl::StatusOr<ir::Expr> ArgExpr(const CallContext& ctx, const Arg& arg, absl::string_view what) {
  std::optional<ir::Expr> e = AsExpr(arg.value);
  if (!e || !e->dtype().is_scalar() || e->dtype().is_handle()) {
    return ctx.TypeError(arg, what, "an expression");
  }
  return *e;
}

absl::StatusOr<ir::Expr> ArgIntExpr(const CallContext& ctx, const Arg& arg,
                                    absl::string_view what) {
  std::optional<ir::Expr> e = AsExpr(arg.value);
  if (!e || !e->dtype().is_scalar() || !e->dtype().is_integral() || e->dtype().is_bool()) {
    return ctx.TypeError(arg, what, "an integer");
  }
  return *e;
}

absl::StatusOr<ir::Expr> ArgCondition(const CallContext& ctx, const Arg& arg,
                                      absl::string_view what) {
  std::optional<ir::Expr> e = AsExpr(arg.value);
  if (!e || !e->dtype().is_bool() || !e->dtype().is_scalar()) {
    return ctx.TypeError(arg, what, "a condition (a comparison or a bool)");
  }
  return *e;
}

absl::StatusOr<ir::IterVar> ArgIterVar(const CallContext& ctx, const Arg& arg,
                                       absl::string_view what) {
  if (arg.value.is(Value::Kind::kIterVar)) return arg.value.as<ir::IterVar>();
  return ctx.TypeError(arg, what, "an axis");
}

absl::StatusOr<std::vector<ir::IterVar>> ArgIterVars(const CallContext& ctx, const Arg& arg,
                                                     absl::string_view what) {
  if (arg.value.is(Value::Kind::kIterVar)) return std::vector{arg.value.as<ir::IterVar>()};
  if (!arg.value.is(Value::Kind::kList))
    return ctx.TypeError(arg, what, "an axis or a list of axes");
  std::vector<ir::IterVar> result;
  for (const Value& item : arg.value.items()) {
    if (!item.is(Value::Kind::kIterVar)) {
      return ctx.Error(arg.pos,
                       absl::StrCat(ctx.name, ": ", what, " must hold axes, got ", TypeName(item)));
    }
    result.push_back(item.as<ir::IterVar>());
  }
  return result;
}

absl::StatusOr<te::Tensor> ArgTensor(const CallContext& ctx, const Arg& arg,
                                     absl::string_view what) {
  if (arg.value.is(Value::Kind::kTensor)) return arg.value.as<te::Tensor>();
  if (arg.value.is(Value::Kind::kOperation)) return te::Tensor(arg.value.as<te::Operation>());
  return ctx.TypeError(arg, what, "a tensor");
}

absl::StatusOr<std::vector<te::Tensor>> ArgTensors(const CallContext& ctx, const Arg& arg,
                                                   absl::string_view what) {
  if (!arg.value.is(Value::Kind::kList)) {
    absl::StatusOr<te::Tensor> one = ArgTensor(ctx, arg, what);
    if (!one.ok()) return one.status();
    return std::vector{*one};
  }
  std::vector<te::Tensor> result;
  for (const Value& item : arg.value.items()) {
    absl::StatusOr<te::Tensor> t = ArgTensor(ctx, Arg{item, arg.pos, arg.keyword}, what);
    if (!t.ok()) return t.status();
    result.push_back(*t);
  }
  return result;
}

absl::StatusOr<std::vector<ir::Expr>> ArgShape(const CallContext& ctx, const Arg& arg,
                                               absl::string_view what) {
  if (!arg.value.is(Value::Kind::kList)) {
    absl::StatusOr<ir::Expr> one = ArgIntExpr(ctx, arg, what);
    if (!one.ok()) return one.status();
    return std::vector{*one};
  }
  std::vector<ir::Expr> shape;
  for (const Value& item : arg.value.items()) {
    std::optional<ir::Expr> e = AsExpr(item);
    if (!e || !e->dtype().is_scalar() || !e->dtype().is_integral() || e->dtype().is_bool()) {
      return ctx.Error(
          arg.pos, absl::StrCat(ctx.name, ": ", what, " must hold integers, got ", TypeName(item)));
    }
    shape.push_back(*e);
  }
  return shape;
}

absl::StatusOr<ir::DataType> ArgDType(const CallContext& ctx, const Arg& arg,
                                      absl::string_view what) {
  absl::StatusOr<std::string> text = ArgString(ctx, arg, what);
  if (!text.ok()) return text.status();
  std::optional<ir::DataType> t = ir::ParseElementType(*text);
  if (!t) {
    return ctx.Error(arg.pos,
                     absl::StrCat(ctx.name, ": unknown ", what, " \"", runtime::Abbreviate(*text),
                                  "\" (known: ", ir::ElementTypeNames(), ")"));
  }
  return *t;
}

absl::StatusOr<ir::Range> ArgRange(const CallContext& ctx, const Arg& arg, absl::string_view what) {
  if (!arg.value.is(Value::Kind::kList) || arg.value.items().size() != 2) {
    return ctx.TypeError(arg, what, "a pair (lo, hi)");
  }
  std::vector<ir::Expr> bounds;
  for (const Value& item : arg.value.items()) {
    absl::StatusOr<ir::Expr> e = ArgIntExpr(ctx, Arg{item, arg.pos, arg.keyword}, what);
    if (!e.ok()) return e.status();
    bounds.push_back(*e);
  }
  ir::Expr extent = bounds[1] - bounds[0];
  return ir::Range::FromMinExtent(ir::Cast(extent.dtype(), bounds[0]), extent);
}

NativeFn FindNative(std::span<const NativeEntry> table, absl::string_view name) {
  for (const NativeEntry& entry : table) {
    if (entry.name == name) return entry.fn;
  }
  return nullptr;
}

}  // namespace tunefarm::script
