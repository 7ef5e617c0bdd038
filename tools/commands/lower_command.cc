#include "tools/commands/lower_command.h"

#include "compiler/ir/printer.h"
#include "driver/script_file.h"

namespace tunefarm::tools {

int RunLowerCommand(const LowerOptions& options, std::ostream& out, std::ostream& err) {
  absl::StatusOr<script::ScriptResult> script = driver::LoadScript(options.file);
  if (!script.ok()) {
    err << "tunefarm: " << script.status().message() << "\n";
    return 1;
  }
  absl::StatusOr<ir::PrimFunc> func = driver::LowerScript(
      *script, driver::FuncNameFor(options.file), passes::PassOptions::FromEnv());
  if (!func.ok()) {
    err << "tunefarm: " << options.file << ": " << func.status().message() << "\n";
    return 1;
  }
  out << ir::ToString(*func);
  return 0;
}

}  // namespace tunefarm::tools
