#include "runtime/measure/error_kind.h"

#include <string>

#include "absl/strings/str_cat.h"

namespace tunefarm::runtime::measure {

std::string_view ErrorKindName(ErrorKind kind) {
  switch (kind) {
    case ErrorKind::kOk:
      return "ok";
    case ErrorKind::kBuildError:
      return "build_error";
    case ErrorKind::kBuildTimeout:
      return "build_timeout";
    case ErrorKind::kRuntimeError:
      return "runtime_error";
    case ErrorKind::kRunTimeout:
      return "run_timeout";
    case ErrorKind::kWrongAnswer:
      return "wrong_answer";
    case ErrorKind::kWorkerLost:
      return "worker_lost";
    case ErrorKind::kInvalidConfig:
      return "invalid_config";
  }
  return "unknown";
}

absl::StatusOr<ErrorKind> ParseErrorKind(std::string_view name) {
  for (ErrorKind kind : kAllErrorKinds) {
    if (ErrorKindName(kind) == name) return kind;
  }
  return absl::InvalidArgumentError(absl::StrCat("unknown error kind '", std::string(name), "'"));
}

}  // namespace tunefarm::runtime::measure
