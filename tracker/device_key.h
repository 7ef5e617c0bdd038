// Device keys name groups of interchangeable devices ("rasp4b", "h100", "epyc-2c"); they are
// checked where they enter the tracker (a worker's registration, a job, a session).
#pragma once

#include "absl/status/status.h"
#include "absl/strings/string_view.h"

namespace tunefarm::tracker {

inline constexpr size_t kMaxDeviceKeyBytes = 128;

// InvalidArgument naming `field` when the key is empty, longer than kMaxDeviceKeyBytes, or holds
// a byte outside printable ASCII (space excluded).
absl::Status ValidateDeviceKey(absl::string_view key, absl::string_view field);

}  // namespace tunefarm::tracker
