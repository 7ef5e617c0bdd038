// The TE script front end's entry point: runs a `.te` script (docs/te-script.md), a Python-like
// mirror of the te/schedule API, and returns the schedule and argument list it declares.
#pragma once

#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "compiler/ir/expr.h"
#include "compiler/schedule/schedule.h"
#include "compiler/te/tensor.h"

namespace tunefarm::script {

struct ScriptResult {
  schedule::Schedule schedule;         // the global `s`, else the last create_schedule(...) made
  std::vector<te::Tensor> args;        // `args = [...]`: the function's parameters, in order
  std::vector<ir::Var> symbolic_vars;  // every var("...") created, in creation order
};

// Errors are InvalidArgument with "FILE:LINE:COL: message" (what was expected / what is wrong).
absl::StatusOr<ScriptResult> RunScript(std::string_view source, std::string_view filename);

}  // namespace tunefarm::script
