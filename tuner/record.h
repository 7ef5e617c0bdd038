// Record: one measurement attempt, successful or not, as the record store keeps it.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "runtime/measure/error_kind.h"
#include "runtime/measure/measure_options.h"

namespace tunefarm::tuner {

// The outcome vocabulary is the runtime's, shared with the measure child and the worker.
using runtime::measure::CacheFlush;
using runtime::measure::ErrorKind;
using runtime::measure::ErrorKindName;
using runtime::measure::kAllErrorKinds;
using runtime::measure::ParseErrorKind;

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
  std::string built_by;      // who compiled it: a worker key, "tracker" or "local"; "": unknown
  int64_t timestamp_ms = 0;  // Unix time of the result, in milliseconds
  std::string tunefarm_version;
  std::string job_id;  // empty when measured outside a job
  // What was evicted before every timed call, one call per repeat, as a layer runs inside a model
  // (model tasks; runtime::measure::TimedFlush); kNone: back-to-back calls with warm caches.
  // Records timed differently are never compared with each other.
  CacheFlush cache_flush = CacheFlush::kNone;
  // How far to trust the repeats (runtime/measure/stable_timing.h): the canary timed around them
  // over its best on that device (1: the machine at its fastest), and whether they stayed over
  // the spread limit, or in a slow phase, after being timed again. Their spread is
  // SpreadOf(repeat_seconds).
  double canary_ratio = 1;
  bool noisy = false;
  // Measured under an emulator (qemu-user): its times are the emulator's, not the device's. Where
  // a key has records of real devices, best and model builds use only those.
  bool emulated = false;

  bool operator==(const Record&) const = default;
};

// The median of the repeats (mean of the middle two for an even count); nullopt when empty.
std::optional<double> MedianSeconds(const std::vector<double>& repeat_seconds);

// (max - min) / min of the repeats; 0 for fewer than two.
double SpreadOf(const std::vector<double>& repeat_seconds);

}  // namespace tunefarm::tuner
