// Helpers shared by the script tests: run a snippet and look at its globals, or get its error.
#pragma once

#include <gtest/gtest.h>
#include <memory>
#include <string>

#include "compiler/ir/printer.h"
#include "compiler/script/evaluator.h"
#include "compiler/script/parser.h"
#include "compiler/script/script.h"

namespace tunefarm::script {

// Runs `source` and keeps the evaluator, whose globals the test inspects.
inline std::unique_ptr<Evaluator> RunOk(const std::string& source) {
  auto evaluator = std::make_unique<Evaluator>("t.te");
  absl::StatusOr<ast::Module> module = Parse(source, "t.te");
  EXPECT_TRUE(module.ok()) << module.status();
  if (!module.ok()) return evaluator;
  absl::Status status = evaluator->Run(*module);
  EXPECT_TRUE(status.ok()) << status;
  return evaluator;
}

inline const Value& Global(const Evaluator& ev, const std::string& name) {
  static const Value kNone;
  const Value* v = ev.globals().Lookup(name);
  EXPECT_NE(v, nullptr) << "no global " << name;
  return v ? *v : kNone;
}

// The global `name` as a printed expression.
inline std::string ExprText(const Evaluator& ev, const std::string& name) {
  std::optional<ir::Expr> e = AsExpr(Global(ev, name));
  EXPECT_TRUE(e.has_value()) << name << " is " << TypeName(Global(ev, name));
  return e ? ir::ToString(*e) : "";
}

// The message of the error RunScript reports for `source` (which must fail with InvalidArgument).
inline std::string ScriptError(const std::string& source) {
  absl::StatusOr<ScriptResult> r = RunScript(source, "t.te");
  EXPECT_FALSE(r.ok()) << source;
  if (r.ok()) return "";
  EXPECT_EQ(r.status().code(), absl::StatusCode::kInvalidArgument) << r.status();
  return std::string(r.status().message());
}

}  // namespace tunefarm::script
