#include "tracker/measure_work.h"

#include <filesystem>
#include <fstream>
#include <memory>
#include <system_error>

#include "absl/strings/str_cat.h"
#include "runtime/measure/sha256.h"

namespace tunefarm::tracker {

absl::StatusOr<Artifact> LoadArtifact(const std::string& path, int64_t max_bytes) {
  std::error_code ec;
  const uintmax_t size = std::filesystem::file_size(path, ec);
  if (ec) {
    return absl::NotFoundError(absl::StrCat("artifact ", path, " cannot be read: ", ec.message()));
  }
  if (static_cast<int64_t>(size) > max_bytes) {
    return absl::ResourceExhaustedError(absl::StrCat(
        "artifact ", path, " is ", size, " bytes, over the limit of ", max_bytes, " bytes"));
  }
  std::ifstream in(path, std::ios::binary);
  if (!in) return absl::NotFoundError(absl::StrCat("artifact ", path, " cannot be opened"));
  auto bytes = std::make_shared<std::string>();
  bytes->resize(size);
  in.read(bytes->data(), static_cast<std::streamsize>(size));
  if (static_cast<uintmax_t>(in.gcount()) != size) {
    return absl::DataLossError(
        absl::StrCat("artifact ", path, ": read ", in.gcount(), " of ", size, " bytes"));
  }
  Artifact artifact;
  artifact.sha256 = runtime::measure::Sha256Hex(*bytes);
  artifact.bytes = std::move(bytes);
  artifact.name = std::filesystem::path(path).filename().string();
  return artifact;
}

}  // namespace tunefarm::tracker
