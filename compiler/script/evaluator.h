// Evaluator: runs a parsed TE script statement by statement, turning its calls into the te and
// schedule API's objects. Internal to compiler/script; callers use RunScript (script.h).
#pragma once

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "compiler/script/ast.h"
#include "compiler/script/call_args.h"
#include "compiler/script/stack_guard.h"
#include "compiler/script/tuning.h"
#include "compiler/script/value.h"

namespace tunefarm::script {

class Evaluator {
 public:
  // `tuning` holds the state of `cfg` (a fallback run's own when null); `bindings` turn var(name)
  // into a constant (none when null). Both outlive the evaluator.
  explicit Evaluator(absl::string_view filename, Tuning* tuning = nullptr,
                     const std::map<std::string, int64_t>* bindings = nullptr);

  // Runs every statement; stops at the first error.
  absl::Status Run(const ast::Module& module);

  absl::StatusOr<Value> Eval(const ast::Expr& expr, const Env& env);
  // Calls a lambda, builtin or bound method; `pos` is the call's position.
  absl::StatusOr<Value> Call(const Value& callee, std::vector<Arg> args, Pos pos);

  // InvalidArgument "FILE:LINE:COL: message".
  absl::Status Error(Pos pos, absl::string_view message) const;

  const Env& globals() const { return *envs_.front(); }
  // Every var(...) the script creates, in creation order.
  void AddSymbolicVar(ir::Var v) { symbolic_vars_.push_back(std::move(v)); }
  const std::vector<ir::Var>& symbolic_vars() const { return symbolic_vars_; }
  // The value bound to var(name), if any.
  std::optional<int64_t> BoundValue(const std::string& name) const;
  Tuning& tuning() { return *tuning_; }
  // The schedule create_schedule made last (used when the script has no global `s`).
  void NoteSchedule(schedule::Schedule s) { last_schedule_ = std::move(s); }
  const std::optional<schedule::Schedule>& last_schedule() const { return last_schedule_; }

 private:
  absl::Status Execute(const ast::Stmt& stmt);
  absl::Status Assign(const ast::Assign& assign, Pos pos);

  absl::StatusOr<Value> EvalNode(const ast::Expr& expr, const Env& env);
  absl::StatusOr<Value> EvalName(const ast::Name& name, Pos pos, const Env& env);
  absl::StatusOr<Value> EvalSequence(const ast::Sequence& seq, const Env& env);
  absl::StatusOr<Value> EvalCall(const ast::Call& call, Pos pos, const Env& env);
  absl::StatusOr<Value> EvalIndex(const ast::Index& index, Pos pos, const Env& env);
  absl::StatusOr<Value> EvalLogical(const ast::Binary& binary, Pos pos, const Env& env);
  absl::StatusOr<Value> CallClosure(const Closure& closure, const std::vector<Arg>& args, Pos pos);

  // operators.cc
  absl::StatusOr<Value> Binary(ast::BinaryOp op, const Value& a, const Value& b, Pos pos);
  absl::StatusOr<Value> Unary(ast::UnaryOp op, const Value& v, Pos pos);
  absl::StatusOr<Value> PlainBinary(ast::BinaryOp op, const Value& a, const Value& b, Pos pos);
  absl::StatusOr<Value> ExprBinary(ast::BinaryOp op, ir::Expr a, ir::Expr b, Pos pos);

  // attributes.cc
  absl::StatusOr<Value> Attribute(const Value& target, const std::string& name, Pos pos);
  absl::StatusOr<Value> Subscript(const Value& target, const std::vector<Arg>& indices, Pos pos);
  absl::StatusOr<Value> IndexTensor(const te::Tensor& tensor, const std::vector<Arg>& indices,
                                    Pos pos);
  absl::StatusOr<Value> IndexList(const Value& list, const std::vector<Arg>& indices, Pos pos);
  absl::StatusOr<Value> IndexCfg(const std::vector<Arg>& indices, Pos pos);

  std::string filename_;
  // Scopes; envs_[0] is the global one. Owned here so closures can point at them.
  std::vector<std::unique_ptr<Env>> envs_;
  std::vector<ir::Var> symbolic_vars_;
  std::optional<schedule::Schedule> last_schedule_;
  std::unique_ptr<Tuning> own_tuning_;
  Tuning* tuning_;
  const std::map<std::string, int64_t>* bindings_;
  int depth_ = 0;  // nested Eval calls, lambda bodies included
  StackGuard stack_;
};

// A builtin by name (also under the prefixes te., tvm.te., tvm.tir., tvm.); null if unknown.
NativeFn FindBuiltin(absl::string_view name);

// builtins_cfg.cc: `cfg.name` and `cfg["knob"].name` (methods and values); nullopt if unknown.
std::optional<Value> CfgAttribute(Evaluator& evaluator, const std::string& name);
std::optional<Value> KnobAttribute(Evaluator& evaluator, const Value& knob,
                                   const std::string& name);

}  // namespace tunefarm::script
