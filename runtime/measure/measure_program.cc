#include "runtime/measure/measure_program.h"

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

std::string BesideSelf() {
  char buffer[4096];
  ssize_t n = readlink("/proc/self/exe", buffer, sizeof(buffer) - 1);
  if (n <= 0) return "";
  std::string self(buffer, static_cast<size_t>(n));
  size_t slash = self.rfind('/');
  if (slash == std::string::npos) return "";
  return self.substr(0, slash + 1) + kMeasureProgramName;
}

absl::Status NotExecutable(const std::string& path, const std::string& source) {
  return absl::NotFoundError(
      absl::StrCat("the measure program ", path, " (", source, ") is not an executable file"));
}

}  // namespace

absl::StatusOr<std::string> FindMeasureProgram(const std::string& explicit_path) {
  if (!explicit_path.empty()) {
    if (IsExecutable(explicit_path)) return explicit_path;
    return NotExecutable(explicit_path, "given in the options");
  }
  if (const char* env = std::getenv(kMeasureProgramEnv); env != nullptr && *env != '\0') {
    if (IsExecutable(env)) return std::string(env);
    return NotExecutable(env, kMeasureProgramEnv);
  }
  std::vector<std::string> tried;
  tried.push_back(BesideSelf());
#ifdef TUNEFARM_MEASURE_PROGRAM
  tried.push_back(TUNEFARM_MEASURE_PROGRAM);
#endif
  for (const std::string& path : tried) {
    if (IsExecutable(path)) return path;
  }
  return absl::NotFoundError(absl::StrCat("cannot find ", kMeasureProgramName, " (tried ",
                                          absl::StrJoin(tried, ", "), "); set ", kMeasureProgramEnv,
                                          " to its path"));
}

}  // namespace tunefarm::runtime::measure
