// The arguments of a call to a builtin or method: matching them to named parameters as Python
// does, and converting each to the C++ type the te/schedule API takes, with an error that names
// the function, the parameter and what was given.
#pragma once

#include <initializer_list>
#include <span>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "compiler/script/value.h"

namespace tunefarm::script {

class Evaluator;

struct Arg {
  Value value;
  Pos pos;
  std::string keyword;  // empty for a positional argument
};

// What a native function sees of its call.
struct CallContext {
  Evaluator& evaluator;
  std::string name;  // "split", "placeholder", ...: names the function in error messages
  Pos pos;           // of the call
  Value self;        // the receiver of a method; None for a plain builtin
  std::vector<Arg> args;

  absl::Status Error(Pos at, absl::string_view message) const;
  absl::Status Error(absl::string_view message) const { return Error(pos, message); }
  // "<name>: <what> must be <expected>, got <type of arg>", at the argument.
  absl::Status TypeError(const Arg& arg, absl::string_view what, absl::string_view expected) const;
};

struct Param {
  absl::string_view name;
  bool required = true;
};

// The call's arguments in the order of `params` (positional first, then by keyword); null for
// an optional parameter that was not given. Errors name the function and the parameter.
absl::StatusOr<std::vector<const Arg*>> BindArgs(const CallContext& ctx,
                                                 std::initializer_list<Param> params);
// For variadic functions (fuse, reorder, all, any): every argument must be positional.
absl::Status RequirePositional(const CallContext& ctx, size_t min_count);

// Conversions; `what` names the parameter in the error.
absl::StatusOr<int64_t> ArgInt(const CallContext& ctx, const Arg& arg, absl::string_view what);
absl::StatusOr<std::string> ArgString(const CallContext& ctx, const Arg& arg,
                                      absl::string_view what);
// Any scalar expression (a number, a bool, an expression, an axis).
absl::StatusOr<ir::Expr> ArgExpr(const CallContext& ctx, const Arg& arg, absl::string_view what);
// An integer-typed expression (a plain int, an integer variable or expression).
absl::StatusOr<ir::Expr> ArgIntExpr(const CallContext& ctx, const Arg& arg, absl::string_view what);
// A bool-typed expression (a comparison, True/False, and/or/not of those).
absl::StatusOr<ir::Expr> ArgCondition(const CallContext& ctx, const Arg& arg,
                                      absl::string_view what);
absl::StatusOr<ir::IterVar> ArgIterVar(const CallContext& ctx, const Arg& arg,
                                       absl::string_view what);
// One axis, or a list or tuple of them.
absl::StatusOr<std::vector<ir::IterVar>> ArgIterVars(const CallContext& ctx, const Arg& arg,
                                                     absl::string_view what);
// A tensor; an operation stands for its output tensor.
absl::StatusOr<te::Tensor> ArgTensor(const CallContext& ctx, const Arg& arg,
                                     absl::string_view what);
// One tensor or operation, or a list or tuple of them.
absl::StatusOr<std::vector<te::Tensor>> ArgTensors(const CallContext& ctx, const Arg& arg,
                                                   absl::string_view what);
// A tuple or list of integer expressions, or a single one.
absl::StatusOr<std::vector<ir::Expr>> ArgShape(const CallContext& ctx, const Arg& arg,
                                               absl::string_view what);
// "float32", "int8", ...: a scalar type a tensor element can have.
absl::StatusOr<ir::DataType> ArgDType(const CallContext& ctx, const Arg& arg,
                                      absl::string_view what);
// (lo, hi) as the range min = lo, extent = hi - lo.
absl::StatusOr<ir::Range> ArgRange(const CallContext& ctx, const Arg& arg, absl::string_view what);

// A native function or method found by name in a table.
struct NativeEntry {
  absl::string_view name;
  NativeFn fn;
};
NativeFn FindNative(std::span<const NativeEntry> table, absl::string_view name);

// The tables (builtins_te.cc, builtins_schedule.cc, builtins_intrin.cc).
std::span<const NativeEntry> TeBuiltins();
std::span<const NativeEntry> ScheduleBuiltins();
std::span<const NativeEntry> IntrinBuiltins();
std::span<const NativeEntry> ExprMethods();
std::span<const NativeEntry> StageMethods();
std::span<const NativeEntry> ScheduleMethods();

}  // namespace tunefarm::script
