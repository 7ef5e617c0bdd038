#include "runtime/measure/helper_program.h"

#include <cstdlib>
#include <unistd.h>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"

namespace tunefarm::runtime::measure {
namespace {

bool IsExecutable(const std::string& path) {
  return !path.empty() && access(path.c_str(), X_OK) == 0;
}

std::string BesideSelf(const char* name) {
  char buffer[4096];
  ssize_t n = readlink("/proc/self/exe", buffer, sizeof(buffer) - 1);
  if (n <= 0) return "";
  std::string self(buffer, static_cast<size_t>(n));
  size_t slash = self.rfind('/');
  if (slash == std::string::npos) return "";
  return self.substr(0, slash + 1) + name;
}

absl::Status NotExecutable(const HelperProgram& helper, const std::string& path,
                           const std::string& source) {
  return absl::NotFoundError(absl::StrCat("the ", helper.name, " program ", path, " (", source,
                                          ") is not an executable file"));
}

}  // namespace

absl::StatusOr<std::string> FindHelperProgram(const HelperProgram& helper,
                                              const std::string& explicit_path) {
  if (!explicit_path.empty()) {
    if (IsExecutable(explicit_path)) return explicit_path;
    return NotExecutable(helper, explicit_path, "given in the options");
  }
  if (const char* env = std::getenv(helper.env); env != nullptr && *env != '\0') {
    if (IsExecutable(env)) return std::string(env);
    return NotExecutable(helper, env, helper.env);
  }
  std::vector<std::string> tried = {BesideSelf(helper.name)};
  if (!helper.built_path.empty()) tried.push_back(helper.built_path);
  for (const std::string& path : tried) {
    if (IsExecutable(path)) return path;
  }
  return absl::NotFoundError(absl::StrCat("cannot find ", helper.name, " (tried ",
                                          absl::StrJoin(tried, ", "), "); set ", helper.env,
                                          " to its path"));
}

}  // namespace tunefarm::runtime::measure
