#include "tools/cli/environment.h"

#include <cstdlib>
#include <set>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "absl/strings/string_view.h"

namespace tunefarm::tools::cli {
namespace {

// The named loggers: the compiler's passes and code generator, and a farm worker's events.
const std::set<std::string, std::less<>> kLoggers = {"codegen", "passes", "worker"};
const std::set<std::string, std::less<>> kLevels = {"trace", "debug", "info",     "warn", "warning",
                                                    "err",   "error", "critical", "off"};

}  // namespace

std::string CheckLogLevels(absl::string_view text) {
  for (absl::string_view entry : absl::StrSplit(text, ',', absl::SkipWhitespace())) {
    const size_t eq = entry.find('=');
    const absl::string_view name = eq == absl::string_view::npos ? "" : entry.substr(0, eq);
    const absl::string_view level = eq == absl::string_view::npos ? entry : entry.substr(eq + 1);
    if (eq != absl::string_view::npos && !kLoggers.contains(name)) {
      return absl::StrCat("TUNEFARM_LOG: unknown logger '", name,
                          "' (loggers: ", absl::StrJoin(kLoggers, ", "), ")");
    }
    if (!kLevels.contains(level)) {
      return absl::StrCat("TUNEFARM_LOG: unknown level '", level,
                          "' (levels: trace, debug, info, warn, error, critical, off)");
    }
  }
  return "";
}

std::string CheckEnvironment() {
  if (const char* log = std::getenv("TUNEFARM_LOG"); log != nullptr) {
    if (std::string problem = CheckLogLevels(log); !problem.empty()) return problem;
  }
  if (const char* n = std::getenv("TUNEFARM_NUM_THREADS"); n != nullptr && *n != '\0') {
    int threads = 0;
    if (!absl::SimpleAtoi(n, &threads) || threads < 1) {
      return absl::StrCat("TUNEFARM_NUM_THREADS must be a whole number of at least 1, got '", n,
                          "'");
    }
  }
  if (const char* t = std::getenv("TUNEFARM_TIME_PASSES");
      t != nullptr && *t != '\0' && absl::string_view(t) != "0" && absl::string_view(t) != "1") {
    return absl::StrCat("TUNEFARM_TIME_PASSES must be 0 or 1, got '", t, "'");
  }
  if (const char* lock = std::getenv("TUNEFARM_TIMING_LOCK"); lock != nullptr && *lock == '\0') {
    return "TUNEFARM_TIMING_LOCK is set but empty (give a lock file's path, or off)";
  }
  return "";
}

}  // namespace tunefarm::tools::cli
