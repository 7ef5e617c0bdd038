// Values of the TE script language at run time: Python's plain values (int, float, bool, str,
// list, tuple, None) next to the compiler objects a script builds (expressions, axes, tensors,
// operations, schedules, stages), the callables (lambdas, builtins, bound methods) and the
// tuning object `cfg` with its knobs.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <unordered_map>
#include <variant>
#include <vector>

#include "absl/status/statusor.h"
#include "compiler/ir/expr.h"
#include "compiler/schedule/schedule.h"
#include "compiler/schedule/tensor_intrin.h"
#include "compiler/script/ast.h"
#include "compiler/te/tensor.h"

namespace tunefarm::script {

class Value;
struct CallContext;
// A builtin function or method implemented in C++ (builtins_te.cc, builtins_schedule.cc).
using NativeFn = absl::StatusOr<Value> (*)(CallContext& ctx);

struct NoneValue {};

struct ListValue {
  std::vector<Value> items;
  bool is_tuple = false;
};

// A scope of names; a lambda call adds one whose parent is the scope the lambda was written in.
// Scopes are owned by the evaluator and outlive every closure that points at them.
class Env {
 public:
  explicit Env(const Env* parent) : parent_(parent) {}
  const Value* Lookup(const std::string& name) const;
  void Set(const std::string& name, Value value);

 private:
  const Env* parent_;
  std::unordered_map<std::string, Value> names_;
};

struct Closure {
  std::vector<std::string> params;
  ast::ExprPtr body;
  const Env* env;
};

// `s[T]`: a stage named by the schedule and the tensor it was created for, looked up on use.
struct StageRef {
  schedule::Schedule schedule;
  te::Tensor tensor;
};

// A builtin, or a method bound to its receiver (`self`).
struct Function {
  std::string name;
  NativeFn fn;
  std::shared_ptr<const Value> self;
};

// `te`, `tvm`, `tvm.te`, `tvm.tir`: prefixes under which the builtins are also found.
struct ModuleValue {
  std::string name;
};

// The global `cfg`: the script's tuning knobs (tuning.h). Its state lives in the evaluator.
struct CfgValue {};

// `cfg["tile_x"]`: one knob of `cfg` by name, looked up on use.
struct KnobRef {
  std::string name;
};

class Value {
 public:
  // In the order of the alternatives of `Storage`.
  enum class Kind : uint8_t {
    kNone,
    kInt,
    kFloat,
    kBool,
    kString,
    kList,
    kExpr,
    kIterVar,
    kTensor,
    kOperation,
    kSchedule,
    kStage,
    kClosure,
    kFunction,
    kModule,
    kCfg,
    kKnob,
    kTensorIntrin,
  };
  using Storage =
      std::variant<NoneValue, int64_t, double, bool, std::string, std::shared_ptr<const ListValue>,
                   ir::Expr, ir::IterVar, te::Tensor, te::Operation, schedule::Schedule, StageRef,
                   std::shared_ptr<const Closure>, Function, ModuleValue, CfgValue, KnobRef,
                   schedule::TensorIntrin>;

  Value() = default;
  static Value Int(int64_t v) { return Value(Storage(std::in_place_index<1>, v)); }
  static Value Float(double v) { return Value(Storage(std::in_place_index<2>, v)); }
  static Value Bool(bool v) { return Value(Storage(std::in_place_index<3>, v)); }
  static Value String(std::string v) {
    return Value(Storage(std::in_place_index<4>, std::move(v)));
  }
  static Value List(std::vector<Value> items, bool is_tuple);
  static Value FromExpr(ir::Expr e) { return Value(Storage(std::move(e))); }
  static Value FromIterVar(ir::IterVar iv) { return Value(Storage(std::move(iv))); }
  // A list (not a tuple) of the axes, as scripts see `op.axis`.
  static Value AxisList(const std::vector<ir::IterVar>& axes);
  static Value FromTensor(te::Tensor t) { return Value(Storage(std::move(t))); }
  static Value FromOperation(te::Operation op) { return Value(Storage(std::move(op))); }
  static Value FromSchedule(schedule::Schedule s) { return Value(Storage(std::move(s))); }
  static Value FromStage(StageRef s) { return Value(Storage(std::move(s))); }
  static Value FromClosure(Closure c);
  static Value FromFunction(Function f) { return Value(Storage(std::move(f))); }
  static Value FromModule(std::string name) { return Value(Storage(ModuleValue{std::move(name)})); }
  static Value Cfg() { return Value(Storage(CfgValue{})); }
  static Value FromKnob(std::string name) { return Value(Storage(KnobRef{std::move(name)})); }
  static Value FromTensorIntrin(schedule::TensorIntrin t) { return Value(Storage(std::move(t))); }

  Kind kind() const { return static_cast<Kind>(data_.index()); }
  bool is(Kind k) const { return kind() == k; }
  template <typename T>
  const T& as() const {
    return std::get<T>(data_);
  }
  // The items of a list or tuple (callers check is(kList) first).
  const std::vector<Value>& items() const { return as<std::shared_ptr<const ListValue>>()->items; }
  bool is_tuple() const { return as<std::shared_ptr<const ListValue>>()->is_tuple; }

 private:
  explicit Value(Storage data) : data_(std::move(data)) {}
  Storage data_;
};

// "an integer", "a tensor", ...: how a value's type reads in an error message.
std::string TypeName(const Value& v);

// The value as a scalar expression: ints become int32 immediates (int64 when they do not fit),
// floats float32, bools bool, an axis its variable. nullopt for anything else.
std::optional<ir::Expr> AsExpr(const Value& v);

// Python truthiness for plain values; nullopt for values that have none here (expressions).
std::optional<bool> Truthiness(const Value& v);

}  // namespace tunefarm::script
