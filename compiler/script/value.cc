#include "compiler/script/value.h"

#include <limits>

#include "absl/strings/str_cat.h"

namespace tunefarm::script {

const Value* Env::Lookup(const std::string& name) const {
  for (const Env* env = this; env != nullptr; env = env->parent_) {
    auto it = env->names_.find(name);
    if (it != env->names_.end()) return &it->second;
  }
  return nullptr;
}

void Env::Set(const std::string& name, Value value) { names_[name] = std::move(value); }

Value Value::List(std::vector<Value> items, bool is_tuple) {
  auto list = std::make_shared<const ListValue>(ListValue{std::move(items), is_tuple});
  return Value(Storage(std::in_place_index<5>, std::move(list)));
}

Value Value::AxisList(const std::vector<ir::IterVar>& axes) {
  std::vector<Value> items;
  for (const ir::IterVar& iv : axes) items.push_back(FromIterVar(iv));
  return List(std::move(items), false);
}

Value Value::FromClosure(Closure c) {
  return Value(Storage(std::make_shared<const Closure>(std::move(c))));
}

std::string TypeName(const Value& v) {
  switch (v.kind()) {
    case Value::Kind::kNone:
      return "None";
    case Value::Kind::kInt:
      return "an integer";
    case Value::Kind::kFloat:
      return "a float";
    case Value::Kind::kBool:
      return "a bool";
    case Value::Kind::kString:
      return "a string";
    case Value::Kind::kList:
      return v.is_tuple() ? "a tuple" : "a list";
    case Value::Kind::kExpr: {
      const ir::Expr& e = v.as<ir::Expr>();
      const char* what = e.As<ir::VarNode>() ? "a variable" : "an expression";
      return absl::StrCat(what, " of type ", e.dtype().ToString());
    }
    case Value::Kind::kIterVar:
      return "an axis";
    case Value::Kind::kTensor:
      return "a tensor";
    case Value::Kind::kOperation:
      return "an operation";
    case Value::Kind::kSchedule:
      return "a schedule";
    case Value::Kind::kStage:
      return "a stage";
    case Value::Kind::kClosure:
      return "a lambda";
    case Value::Kind::kFunction:
      return "a function";
    case Value::Kind::kModule:
      return "a module";
    case Value::Kind::kCfg:
      return "the tuning config";
    case Value::Kind::kKnob:
      return "a knob";
    case Value::Kind::kTensorIntrin:
      return absl::StrCat("tensor intrinsic ", v.as<schedule::TensorIntrin>()->name);
  }
  return "a value";
}

std::optional<ir::Expr> AsExpr(const Value& v) {
  switch (v.kind()) {
    case Value::Kind::kInt: {
      int64_t x = v.as<int64_t>();
      bool fits =
          x >= std::numeric_limits<int32_t>::min() && x <= std::numeric_limits<int32_t>::max();
      return ir::IntImm(fits ? ir::DataType::Int(32) : ir::DataType::Int(64), x);
    }
    case Value::Kind::kFloat:
      return ir::FloatImm(ir::DataType::Float(32), v.as<double>());
    case Value::Kind::kBool:
      return ir::IntImm(ir::DataType::Bool(), v.as<bool>() ? 1 : 0);
    case Value::Kind::kExpr:
      return v.as<ir::Expr>();
    case Value::Kind::kIterVar:
      return ir::Expr(v.as<ir::IterVar>()->var);
    default:
      return std::nullopt;
  }
}

std::optional<bool> Truthiness(const Value& v) {
  switch (v.kind()) {
    case Value::Kind::kNone:
      return false;
    case Value::Kind::kInt:
      return v.as<int64_t>() != 0;
    case Value::Kind::kFloat:
      return v.as<double>() != 0.0;
    case Value::Kind::kBool:
      return v.as<bool>();
    case Value::Kind::kString:
      return !v.as<std::string>().empty();
    case Value::Kind::kList:
      return !v.items().empty();
    default:
      return std::nullopt;
  }
}

}  // namespace tunefarm::script
