// Attribute access (`C.op.axis`, `s[C].split`, `te.compute`) and subscripts (`A[i, k]`,
// `axes[0]`, `s[C]`) on script values.
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "compiler/script/evaluator.h"

namespace tunefarm::script {
namespace {

// Attributes of an operation (also reached through a tensor).
std::optional<Value> OperationAttribute(const te::Operation& op, const std::string& name) {
  if (name == "axis") return Value::AxisList(op->axis);
  if (name == "reduce_axis") return Value::AxisList(op->reduce_axis);
  if (name == "name") return Value::String(op->name);
  if (name == "input_tensors") {
    std::vector<Value> items;
    for (const te::Operation& input : op->InputOps()) {
      items.push_back(Value::FromTensor(te::Tensor(input)));
    }
    return Value::List(std::move(items), false);
  }
  return std::nullopt;
}

std::optional<Value> TensorAttribute(const te::Tensor& t, const std::string& name) {
  if (name == "op") return Value::FromOperation(t.op());
  if (name == "dtype") return Value::String(t.dtype().ToString());
  if (name == "ndim") return Value::Int(static_cast<int64_t>(t.ndim()));
  if (name == "shape") {
    std::vector<Value> dims;
    for (const ir::Expr& e : t.shape()) dims.push_back(Value::FromExpr(e));
    return Value::List(std::move(dims), false);
  }
  return OperationAttribute(t.op(), name);
}

Value Method(absl::string_view name, NativeFn fn, const Value& self) {
  return Value::FromFunction(Function{std::string(name), fn, std::make_shared<const Value>(self)});
}

// How an object reads at the start of "... has no attribute 'x'".
std::string Owner(const Value& v) {
  if (v.is(Value::Kind::kTensor)) return absl::StrCat("tensor ", v.as<te::Tensor>().name());
  if (v.is(Value::Kind::kOperation)) return absl::StrCat("operation ", v.as<te::Operation>()->name);
  if (v.is(Value::Kind::kStage)) return absl::StrCat("stage ", v.as<StageRef>().tensor.name());
  if (v.is(Value::Kind::kModule)) return absl::StrCat("module '", v.as<ModuleValue>().name, "'");
  if (v.is(Value::Kind::kCfg)) return "cfg";
  if (v.is(Value::Kind::kKnob)) return absl::StrCat("cfg[\"", v.as<KnobRef>().name, "\"]");
  return TypeName(v);
}

}  // namespace

absl::StatusOr<Value> Evaluator::Attribute(const Value& target, const std::string& name, Pos pos) {
  std::optional<Value> result;
  switch (target.kind()) {
    case Value::Kind::kModule:
      if (name == "te" || name == "tir") {
        result = Value::FromModule(name);
      } else if (NativeFn fn = FindBuiltin(name)) {
        result = Value::FromFunction(Function{name, fn, {}});
      }
      break;
    case Value::Kind::kTensor:
      result = TensorAttribute(target.as<te::Tensor>(), name);
      break;
    case Value::Kind::kOperation:
      result = OperationAttribute(target.as<te::Operation>(), name);
      break;
    case Value::Kind::kStage: {
      const StageRef& ref = target.as<StageRef>();
      if (name == "op") {
        result = Value::FromOperation(ref.schedule[ref.tensor].op());
      } else if (NativeFn fn = FindNative(StageMethods(), name)) {
        result = Method(name, fn, target);
      }
      break;
    }
    case Value::Kind::kSchedule:
      if (NativeFn fn = FindNative(ScheduleMethods(), name)) result = Method(name, fn, target);
      break;
    case Value::Kind::kIterVar:
      if (name == "var") result = Value::FromExpr(target.as<ir::IterVar>()->var);
      break;
    case Value::Kind::kExpr:
      if (NativeFn fn = FindNative(ExprMethods(), name)) result = Method(name, fn, target);
      break;
    case Value::Kind::kCfg:
      result = CfgAttribute(*this, name);
      break;
    case Value::Kind::kKnob:
      result = KnobAttribute(*this, target, name);
      break;
    default:
      break;
  }
  if (result) return *std::move(result);
  return Error(pos, absl::StrCat(Owner(target), " has no attribute '", name, "'"));
}

absl::StatusOr<Value> Evaluator::Subscript(const Value& target, const std::vector<Arg>& indices,
                                           Pos pos) {
  switch (target.kind()) {
    case Value::Kind::kTensor:
      return IndexTensor(target.as<te::Tensor>(), indices, pos);
    case Value::Kind::kList:
      return IndexList(target, indices, pos);
    case Value::Kind::kSchedule: {
      const auto& s = target.as<schedule::Schedule>();
      CallContext ctx{*this, "schedule[]", pos, Value(), {}};
      if (indices.size() != 1) return Error(pos, "a schedule is indexed by one tensor: s[T]");
      absl::StatusOr<te::Tensor> t = ArgTensor(ctx, indices[0], "the index");
      if (!t.ok()) return t.status();
      if (!s.Contains(*t)) {
        return Error(indices[0].pos,
                     absl::StrCat("tensor ", t->name(), " is not in this schedule"));
      }
      return Value::FromStage(StageRef{s, *t});
    }
    case Value::Kind::kCfg:
      return IndexCfg(indices, pos);
    default:
      return Error(pos, absl::StrCat(Owner(target), " cannot be indexed"));
  }
}

absl::StatusOr<Value> Evaluator::IndexTensor(const te::Tensor& tensor,
                                             const std::vector<Arg>& indices, Pos pos) {
  // A[(i, j)] is A[i, j], as in Python.
  std::vector<Arg> flat;
  for (const Arg& index : indices) {
    if (!index.value.is(Value::Kind::kList)) {
      flat.push_back(index);
      continue;
    }
    for (const Value& item : index.value.items()) flat.push_back(Arg{item, index.pos, ""});
  }
  if (flat.size() != tensor.ndim()) {
    return Error(pos, absl::StrCat("tensor ", tensor.name(), " has ", tensor.ndim(),
                                   tensor.ndim() == 1 ? " dimension" : " dimensions",
                                   " but is indexed with ", flat.size(),
                                   flat.size() == 1 ? " index" : " indices"));
  }
  std::vector<ir::Expr> exprs;
  for (size_t i = 0; i < flat.size(); ++i) {
    std::optional<ir::Expr> e = AsExpr(flat[i].value);
    if (!e || !e->dtype().is_scalar() || !e->dtype().is_integral() || e->dtype().is_bool()) {
      return Error(flat[i].pos, absl::StrCat("index ", i, " of tensor ", tensor.name(),
                                             " must be an integer, got ", TypeName(flat[i].value)));
    }
    exprs.push_back(*e);
  }
  return Value::FromExpr(tensor(std::move(exprs)));
}

absl::StatusOr<Value> Evaluator::IndexCfg(const std::vector<Arg>& indices, Pos pos) {
  if (indices.size() != 1 || !indices[0].value.is(Value::Kind::kString)) {
    return Error(pos, "cfg is indexed by one knob name: cfg[\"tile_x\"]");
  }
  const std::string& name = indices[0].value.as<std::string>();
  if (tuning_->Find(name) == nullptr) {
    const std::vector<std::string>& known = tuning_->names();
    return Error(indices[0].pos,
                 absl::StrCat("cfg has no knob '", name, "' (defined so far: ",
                              known.empty() ? "none" : absl::StrJoin(known, ", "),
                              "); define it first with cfg.define_split/define_reorder/"
                              "define_annotate/define_knob"));
  }
  return Value::FromKnob(name);
}

absl::StatusOr<Value> Evaluator::IndexList(const Value& list, const std::vector<Arg>& indices,
                                           Pos pos) {
  const char* what = list.is_tuple() ? "tuple" : "list";
  if (indices.size() != 1) return Error(pos, absl::StrCat("a ", what, " takes one index"));
  if (!indices[0].value.is(Value::Kind::kInt)) {
    return Error(indices[0].pos,
                 absl::StrCat(what, " indices must be integers, got ", TypeName(indices[0].value)));
  }
  int64_t size = static_cast<int64_t>(list.items().size());
  int64_t i = indices[0].value.as<int64_t>();
  int64_t at = i < 0 ? i + size : i;  // Python's negative indices count from the end
  if (at < 0 || at >= size) {
    return Error(indices[0].pos, absl::StrCat(what, " index ", i, " out of range (the ", what,
                                              " has ", size, " items)"));
  }
  return list.items()[at];
}

}  // namespace tunefarm::script
