#include "compiler/codegen/llvm/temp_dir.h"

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <stdlib.h>
#include <vector>

#include "absl/strings/str_cat.h"

namespace tunefarm::codegen {

absl::StatusOr<TempDir> TempDir::Create(const std::string& prefix) {
  std::error_code ec;
  std::filesystem::path base = std::filesystem::temp_directory_path(ec);
  if (ec) base = "/tmp";
  std::string pattern = (base / absl::StrCat(prefix, "-XXXXXX")).string();
  std::vector<char> buffer(pattern.begin(), pattern.end());
  buffer.push_back('\0');
  if (mkdtemp(buffer.data()) == nullptr) {
    return absl::UnavailableError(
        absl::StrCat("cannot create a temporary directory ", pattern, ": ", std::strerror(errno)));
  }
  return TempDir(std::string(buffer.data()));
}

TempDir::~TempDir() {
  if (path_.empty()) return;
  std::error_code ec;  // nothing useful to do if removal fails
  std::filesystem::remove_all(path_, ec);
}

}  // namespace tunefarm::codegen
