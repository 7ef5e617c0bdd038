// Record: one measurement attempt, successful or not, as the record store keeps it, and the
// error kinds a measurement can end with (outcomes are data, not errors).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"

namespace tunefarm::tuner {

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

// The stable snake_case name stored in the database and in JSON lines ("ok", "build_error", ...).
std::string_view ErrorKindName(ErrorKind kind);
absl::StatusOr<ErrorKind> ParseErrorKind(std::string_view name);

struct Record {
  std::string workload_key;            // canonical task key, e.g. "matmul:1024,1024,1024:float32"
  std::string target;                  // e.g. "llvm -mtriple=aarch64-linux-gnu"
  std::string device_key;              // the fleet's name for the device kind, e.g. "rasp4b"
  std::string config_json;             // one point of the config space, as compact JSON
  std::vector<double> repeat_seconds;  // every repeat's mean time, in order
  ErrorKind error_kind = ErrorKind::kOk;
  std::string error_message;
  double build_seconds = 0;
  std::string measured_by;   // worker key (or "local")
  int64_t timestamp_ms = 0;  // Unix time of the result, in milliseconds
  std::string tunefarm_version;
  std::string job_id;  // empty when measured outside a job

  bool operator==(const Record&) const = default;
};

// The median of the repeats (mean of the middle two for an even count); nullopt when empty.
std::optional<double> MedianSeconds(const std::vector<double>& repeat_seconds);

}  // namespace tunefarm::tuner
