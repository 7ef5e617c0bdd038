#include "tracker/measure_work.h"

#include <filesystem>
#include <memory>

#include "runtime/measure/library_file.h"
#include "runtime/measure/sha256.h"

namespace tunefarm::tracker {

absl::StatusOr<Artifact> LoadArtifact(const std::string& path, int64_t max_bytes) {
  absl::StatusOr<std::string> bytes = runtime::measure::ReadLibraryFile(path, max_bytes);
  if (!bytes.ok()) return bytes.status();
  Artifact artifact;
  artifact.sha256 = runtime::measure::Sha256Hex(*bytes);
  artifact.bytes = std::make_shared<const std::string>(*std::move(bytes));
  artifact.name = std::filesystem::path(path).filename().string();
  return artifact;
}

}  // namespace tunefarm::tracker
