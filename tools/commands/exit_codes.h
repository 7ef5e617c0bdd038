// The exit codes of every command: 0 done, 1 failed (the one-line reason is on stderr), 2 a
// usage error (a flag or input refused before anything ran), 130 interrupted (Ctrl-C).
#pragma once

#include "absl/status/status.h"

namespace tunefarm::tools {

inline constexpr int kExitOk = 0;
inline constexpr int kExitFailed = 1;
inline constexpr int kExitUsage = 2;
inline constexpr int kExitInterrupted = 130;

// The exit code of a failed library or farm call: a request refused as given (a bad argument, a
// missing or wrong token, a name nobody knows) is a usage error, anything else failed.
inline int ExitCodeOf(const absl::Status& status) {
  switch (status.code()) {
    case absl::StatusCode::kOk:
      return kExitOk;
    case absl::StatusCode::kInvalidArgument:
    case absl::StatusCode::kUnauthenticated:
    case absl::StatusCode::kPermissionDenied:
      return kExitUsage;
    default:
      return kExitFailed;
  }
}

}  // namespace tunefarm::tools
