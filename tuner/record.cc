#include "tuner/record.h"

#include <algorithm>

#include "absl/strings/str_cat.h"

namespace tunefarm::tuner {

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

std::optional<double> MedianSeconds(const std::vector<double>& repeat_seconds) {
  if (repeat_seconds.empty()) return std::nullopt;
  std::vector<double> sorted = repeat_seconds;
  std::sort(sorted.begin(), sorted.end());
  size_t mid = sorted.size() / 2;
  if (sorted.size() % 2 == 1) return sorted[mid];
  return (sorted[mid - 1] + sorted[mid]) / 2;
}

}  // namespace tunefarm::tuner
