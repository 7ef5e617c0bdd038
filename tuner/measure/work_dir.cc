#include "tuner/measure/work_dir.h"

#include <cerrno>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <system_error>
#include <unistd.h>
#include <vector>

#include "absl/strings/str_cat.h"

namespace tunefarm::tuner {

namespace {

constexpr char kPrefix[] = "tunefarm-build-";
constexpr size_t kPrefixSize = sizeof(kPrefix) - 1;

// Removes "tunefarm-build-<pid>-*" directories whose process is gone: a tuner killed with SIGKILL
// never ran its destructors. A live process (or a reused pid) keeps its directory; kept
// directories have another name and are never swept.
void SweepStale(const std::string& base) {
  std::error_code ec;
  for (const auto& entry : std::filesystem::directory_iterator(base, ec)) {
    const std::string name = entry.path().filename().string();
    if (name.rfind(kPrefix, 0) != 0) continue;
    const size_t dash = name.find('-', kPrefixSize);
    if (dash == std::string::npos || dash == kPrefixSize) continue;
    int64_t pid = 0;
    bool digits = true;
    for (size_t i = kPrefixSize; i < dash; ++i) {
      digits = digits && name[i] >= '0' && name[i] <= '9';
      if (digits) pid = pid * 10 + (name[i] - '0');
      if (pid > (int64_t{1} << 31)) digits = false;
    }
    if (!digits || pid == getpid() || kill(static_cast<pid_t>(pid), 0) == 0 || errno != ESRCH) {
      continue;
    }
    std::error_code ignored;
    std::filesystem::remove_all(entry.path(), ignored);
  }
}

}  // namespace

absl::StatusOr<std::shared_ptr<WorkDir>> WorkDir::Create(const std::string& parent, bool keep) {
  std::string base = parent;
  if (base.empty()) {
    const char* tmp = std::getenv("TMPDIR");
    base = tmp != nullptr && *tmp != '\0' ? tmp : "/tmp";
  }
  if (!keep) SweepStale(base);
  std::string pattern = keep ? absl::StrCat(base, "/tunefarm-kept-build-XXXXXX")
                             : absl::StrCat(base, "/", kPrefix, getpid(), "-XXXXXX");
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
