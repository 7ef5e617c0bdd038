#include "driver/record_db.h"

#include <filesystem>

#include "absl/strings/str_cat.h"

namespace tunefarm::driver {

absl::StatusOr<std::unique_ptr<tuner::RecordStore>> OpenRecordDb(const std::string& path,
                                                                 DbMode mode) {
  if (path.empty()) return absl::InvalidArgumentError("no database given (--db FILE)");
  std::error_code ec;
  if (mode == DbMode::kMustExist && !std::filesystem::exists(path, ec)) {
    return absl::NotFoundError(absl::StrCat("no record database at ", path));
  }
  absl::StatusOr<std::unique_ptr<tuner::RecordStore>> store = tuner::RecordStore::Open(path);
  if (!store.ok()) {
    return absl::Status(store.status().code(), absl::StrCat(path, ": ", store.status().message()));
  }
  return store;
}

}  // namespace tunefarm::driver
