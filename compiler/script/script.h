// The TE script front end's entry point: runs a `.te` script (docs/te-script.md), a Python-like
// mirror of the te/schedule API, and returns the schedule and argument list it declares.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "absl/status/statusor.h"
#include "compiler/ir/expr.h"
#include "compiler/schedule/schedule.h"
#include "compiler/space/config.h"
#include "compiler/space/config_space.h"
#include "compiler/te/tensor.h"

namespace tunefarm::script {

struct ScriptResult {
  schedule::Schedule schedule;         // the global `s`, else the last create_schedule(...) made
  std::vector<te::Tensor> args;        // `args = [...]`: the function's parameters, in order
  std::vector<ir::Var> symbolic_vars;  // every var("...") created, in creation order (bound
                                       // ones too, though their uses are constants)
  // The variables that were bound to constants, by name, in creation order (each name once).
  std::vector<std::pair<std::string, int64_t>> bound_vars;
  // The script's `cfg` knobs, in definition order, and the value index each took in this run
  // (the config's in apply mode, the fallback otherwise). Empty for a script without knobs.
  std::vector<std::string> knob_names;
  std::vector<int64_t> knob_indices;
};

// The values a bound variable may take: it is a size (a shape's or a loop's extent), and a larger
// one only makes the tuner's work explode (a split knob enumerates the extent's divisors).
// RunScript refuses a binding outside [1, kMaxBindingValue] before it evaluates anything, naming
// the binding.
inline constexpr int64_t kMaxBindingValue = (int64_t{1} << 31) - 1;

// How to run a script: which values its variables take and what `cfg` does.
struct ScriptOptions {
  // var(name) of a bound name is that integer constant. When not given, a script that uses
  // `cfg` takes the values of its "# bind: n=64,m=32" first line (tuning needs constant shapes),
  // and any other script keeps its variables symbolic. A bound name the script never creates
  // is an error, and so is a value outside [1, kMaxBindingValue].
  std::optional<std::map<std::string, int64_t>> bindings;
  // Define mode: the script's knobs are declared into this empty space (which outlives the
  // call) and each takes its fallback value.
  space::ConfigSpace* define_into = nullptr;
  // Apply mode: each knob takes this config's value; a knob its space lacks or has with another
  // domain is an error, and so is a knob of its space that the script does not define.
  const space::Config* config = nullptr;
};

// Errors are InvalidArgument with "FILE:LINE:COL: message" (what was expected / what is wrong).
absl::StatusOr<ScriptResult> RunScript(std::string_view source, std::string_view filename);
// The same with bindings and a tuning mode (at most one of define_into and config).
absl::StatusOr<ScriptResult> RunScript(std::string_view source, std::string_view filename,
                                       const ScriptOptions& options);

}  // namespace tunefarm::script
