#include "driver/script_file.h"

#include <cctype>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "absl/strings/str_cat.h"
#include "compiler/passes/lower.h"

namespace tunefarm::driver {

absl::StatusOr<script::ScriptResult> LoadScript(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return absl::NotFoundError(absl::StrCat("cannot open ", path));
  std::stringstream text;
  text << in.rdbuf();
  if (in.bad()) return absl::DataLossError(absl::StrCat("cannot read ", path));
  return script::RunScript(text.str(), path);
}

std::string FuncNameFor(const std::string& path) {
  std::string name = std::filesystem::path(path).stem().string();
  for (char& c : name) {
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_') c = '_';
  }
  if (name.empty() || std::isdigit(static_cast<unsigned char>(name.front()))) {
    name.insert(0, "f_");
  }
  return name;
}

absl::StatusOr<ir::PrimFunc> LowerScript(const script::ScriptResult& script,
                                         const std::string& name,
                                         const passes::PassOptions& options) {
  return passes::Lower(script.schedule, script.args, name, options);
}

}  // namespace tunefarm::driver
