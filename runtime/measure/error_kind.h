// ErrorKind: how a measurement attempt ended, the one outcome vocabulary of the measure child,
// the worker, the tracker, the tuner and the record store (outcomes are data, not errors).
#pragma once

#include <string_view>

#include "absl/status/statusor.h"

namespace tunefarm::runtime::measure {

enum class ErrorKind {
  kOk,
  kBuildError,
  kBuildTimeout,
  kRuntimeError,
  kRunTimeout,
  kWrongAnswer,
  kWorkerLost,
  kInvalidConfig,
};

inline constexpr ErrorKind kAllErrorKinds[] = {
    ErrorKind::kOk,           ErrorKind::kBuildError,    ErrorKind::kBuildTimeout,
    ErrorKind::kRuntimeError, ErrorKind::kRunTimeout,    ErrorKind::kWrongAnswer,
    ErrorKind::kWorkerLost,   ErrorKind::kInvalidConfig,
};

// The stable snake_case name used on every wire and in the database ("ok", "build_error", ...).
std::string_view ErrorKindName(ErrorKind kind);
// InvalidArgument naming an unknown name.
absl::StatusOr<ErrorKind> ParseErrorKind(std::string_view name);

}  // namespace tunefarm::runtime::measure
