// A `.te` file taken through the front end: read, run (compiler/script) and lowered, as the
// `lower` and `run` subcommands both need it.
#pragma once

#include <string>

#include "absl/status/statusor.h"
#include "compiler/ir/function.h"
#include "compiler/passes/pass.h"
#include "compiler/script/script.h"

namespace tunefarm::driver {

// Reads and runs the script at `path`; errors carry "PATH:LINE:COL:" from the script front end.
absl::StatusOr<script::ScriptResult> LoadScript(const std::string& path);

// The PrimFunc name for a script file: its stem, with characters other than [A-Za-z0-9_] as '_'.
std::string FuncNameFor(const std::string& path);

// Lowers the script's schedule over its args.
absl::StatusOr<ir::PrimFunc> LowerScript(const script::ScriptResult& script,
                                         const std::string& name,
                                         const passes::PassOptions& options);

}  // namespace tunefarm::driver
