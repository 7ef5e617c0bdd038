#include "tracker/device_key.h"

#include "absl/strings/str_cat.h"

namespace tunefarm::tracker {

absl::Status ValidateDeviceKey(absl::string_view key, absl::string_view field) {
  if (key.empty()) {
    return absl::InvalidArgumentError(
        absl::StrCat(field, " is empty: name the kind of device to measure on"));
  }
  if (key.size() > kMaxDeviceKeyBytes) {
    return absl::InvalidArgumentError(absl::StrCat(
        field, " is ", key.size(), " bytes long, over the limit of ", kMaxDeviceKeyBytes));
  }
  for (size_t i = 0; i < key.size(); ++i) {
    // Printable ASCII only: keys appear in URLs, metric labels and log lines, and the
    // dispatcher names its internal queues with a control character. The key is not quoted:
    // what it holds is the problem.
    const char c = key[i];
    if (c <= ' ' || c > '~') {
      return absl::InvalidArgumentError(
          absl::StrCat(field, " holds a space, a control character or a non-ASCII byte (at byte ",
                       i, "); use printable ASCII"));
    }
  }
  return absl::OkStatus();
}

}  // namespace tunefarm::tracker
