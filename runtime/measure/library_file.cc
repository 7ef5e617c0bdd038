#include "runtime/measure/library_file.h"

#include <filesystem>
#include <fstream>
#include <system_error>

#include "absl/strings/str_cat.h"

namespace tunefarm::runtime::measure {

absl::StatusOr<std::string> ReadLibraryFile(const std::string& path, int64_t max_bytes) {
  std::error_code ec;
  const uintmax_t size = std::filesystem::file_size(path, ec);
  if (ec) {
    return absl::NotFoundError(absl::StrCat("library ", path, " cannot be read: ", ec.message()));
  }
  if (static_cast<int64_t>(size) > max_bytes) {
    return absl::ResourceExhaustedError(absl::StrCat(
        "library ", path, " is ", size, " bytes, over the limit of ", max_bytes, " bytes"));
  }
  std::ifstream in(path, std::ios::binary);
  if (!in) return absl::NotFoundError(absl::StrCat("library ", path, " cannot be opened"));
  std::string bytes(size, '\0');
  in.read(bytes.data(), static_cast<std::streamsize>(size));
  if (static_cast<uintmax_t>(in.gcount()) != size) {
    return absl::DataLossError(
        absl::StrCat("library ", path, ": read ", in.gcount(), " of ", size, " bytes"));
  }
  return bytes;
}

}  // namespace tunefarm::runtime::measure
