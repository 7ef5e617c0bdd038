#include "tools/commands/build_command.h"

#include "absl/strings/str_cat.h"
#include "compiler/codegen/llvm/build.h"
#include "tools/commands/script_file.h"
#include "tools/commands/signature_text.h"

namespace tunefarm::tools {

int RunBuildCommand(const BuildOptions& options, std::ostream& out, std::ostream& err) {
  absl::StatusOr<codegen::Target> target = codegen::ParseTarget(options.target);
  if (!target.ok()) {
    err << "tunefarm: " << target.status().message() << "\n";
    return 2;
  }
  if (options.output.empty()) {
    err << "tunefarm: build needs -o PATH for the shared library\n";
    return 2;
  }
  auto fail = [&](const absl::Status& status) {
    err << "tunefarm: " << status.message() << "\n";
    return 1;
  };
  absl::StatusOr<script::ScriptResult> script = LoadScript(options.file);
  if (!script.ok()) return fail(script.status());
  std::string name = FuncNameFor(options.file);
  absl::StatusOr<ir::PrimFunc> func = LowerScript(*script, name, passes::PassOptions::FromEnv());
  if (!func.ok()) {
    return fail(absl::Status(func.status().code(),
                             absl::StrCat(options.file, ": ", func.status().message())));
  }
  absl::StatusOr<runtime::FunctionSignature> signature = codegen::SignatureOf(*func);
  if (!signature.ok()) return fail(signature.status());
  if (absl::Status st = codegen::ExportLibrary({*func}, *target, options.output); !st.ok()) {
    return fail(st);
  }
  out << "wrote " << options.output << ": kernel " << SignatureText(*signature) << " for "
      << target->ToString() << "\n";
  return 0;
}

}  // namespace tunefarm::tools
