// Shared helpers for the record store tests: a fresh database path per test and sample records.
#pragma once

#include <filesystem>
#include <gtest/gtest.h>
#include <string>

#include "tuner/record.h"

namespace tunefarm::tuner::testing {

// A path in a directory of its own under the test temp dir, removed first so each test starts
// with no database, WAL or shm file.
inline std::string FreshDbPath(const std::string& name) {
  std::filesystem::path dir = std::filesystem::path(::testing::TempDir()) / ("tf_records_" + name);
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  return (dir / "tf.db").string();
}

inline Record SampleRecord(std::vector<double> repeats, ErrorKind kind = ErrorKind::kOk) {
  Record r;
  r.workload_key = "matmul:64,64,64:float32";
  r.target = "llvm";
  r.device_key = "epyc-2c";
  r.config_json = R"({"tile_x":[4,16],"unroll":1})";
  r.repeat_seconds = std::move(repeats);
  r.error_kind = kind;
  r.error_message = kind == ErrorKind::kOk ? "" : "it broke";
  r.build_seconds = 0.125;
  r.measured_by = "worker-1";
  r.timestamp_ms = 1'700'000'000'123;
  r.tunefarm_version = "0.1.0";
  r.job_id = "job-1";
  return r;
}

}  // namespace tunefarm::tuner::testing
