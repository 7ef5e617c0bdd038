#include "tuner/measure/work_dir.h"

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <system_error>
#include <vector>

#include "absl/strings/str_cat.h"

namespace tunefarm::tuner {

absl::StatusOr<std::shared_ptr<WorkDir>> WorkDir::Create(const std::string& parent, bool keep) {
  std::string base = parent;
  if (base.empty()) {
    const char* tmp = std::getenv("TMPDIR");
    base = tmp != nullptr && *tmp != '\0' ? tmp : "/tmp";
  }
  std::string pattern = absl::StrCat(base, "/tunefarm-build-XXXXXX");
  std::vector<char> buffer(pattern.begin(), pattern.end());
  buffer.push_back('\0');
  if (mkdtemp(buffer.data()) == nullptr) {
    return absl::UnavailableError(
        absl::StrCat("cannot create a build directory in ", base, ": ", std::strerror(errno)));
  }
  return std::shared_ptr<WorkDir>(new WorkDir(buffer.data(), keep));
}

WorkDir::~WorkDir() {
  if (keep_ || path_.empty()) return;
  std::error_code ignored;  // a destructor has no one to report to; a leftover is harmless
  std::filesystem::remove_all(path_, ignored);
}

}  // namespace tunefarm::tuner
