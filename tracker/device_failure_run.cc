#include "tracker/device_failure_run.h"

#include "absl/strings/str_cat.h"

namespace tunefarm::tracker {

bool DeviceFailureRun::Add(tuner::ErrorKind kind, const std::string& device_key,
                           const std::string& message) {
  switch (kind) {
    case tuner::ErrorKind::kOk:
      length_ = 0;
      break;
    case tuner::ErrorKind::kRuntimeError:
    case tuner::ErrorKind::kRunTimeout:
    case tuner::ErrorKind::kWorkerLost:
      ++length_;
      device_key_ = device_key;
      last_kind_ = kind;
      last_message_ = message;
      break;
    default:
      break;
  }
  return length_ >= kLimit;
}

std::string DeviceFailureRun::Reason() const {
  return absl::StrCat("the last ", length_, " trials failed on the devices of '", device_key_,
                      "' (", std::string(tuner::ErrorKindName(last_kind_)),
                      last_message_.empty() ? "" : absl::StrCat(": ", last_message_),
                      "); check the devices (tunefarm workers)");
}

}  // namespace tunefarm::tracker
