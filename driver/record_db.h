// Opening the record database for a command: commands that only read refuse a missing file
// instead of creating an empty database, so a mistyped --db path is an error, not "no records".
#pragma once

#include <memory>
#include <string>

#include "absl/status/statusor.h"
#include "tuner/record_store.h"

namespace tunefarm::driver {

enum class DbMode { kMustExist, kCreate };

absl::StatusOr<std::unique_ptr<tuner::RecordStore>> OpenRecordDb(const std::string& path,
                                                                 DbMode mode);

}  // namespace tunefarm::driver
