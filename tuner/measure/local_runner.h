// LocalRunner: checks and times candidates on this machine in a persistent child process
// (tunefarm-measure), one candidate at a time, so a crash, a hang or a wild write in generated
// code is recorded as runtime_error or run_timeout and the next candidate runs in a fresh child.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "tuner/measure.h"

namespace tunefarm::runtime::measure {
class IsolatedMeasurer;
}

namespace tunefarm::tuner {

struct LocalRunnerOptions {
  // The measure program; empty: runtime::measure::FindMeasureProgram's search (the
  // TUNEFARM_MEASURE_PROGRAM environment variable, beside this executable, the build's path).
  std::string program;
  std::string device_key;  // empty: "local-" and the CPU model, e.g. "local-amd-epyc"
  MeasureOptions measure;  // number, repeat, ..., run_timeout_s, check_correctness, seed
  // The deadline of each reference's naive schedule, run once on its own before the first
  // candidate that needs it (its outputs are then cached beside its library).
  double reference_timeout_s = 300;
};

// Not thread-safe: one Run at a time (a device measures one candidate at a time anyway).
class LocalRunner final : public Runner {
 public:
  // Errors: no measure program found, or options out of range.
  static absl::StatusOr<std::unique_ptr<LocalRunner>> Create(LocalRunnerOptions options = {});
  ~LocalRunner() override;

  // Builds that failed pass through; others are sent to the child with run_timeout_s each:
  // ok (every repeat's mean), wrong_answer, runtime_error (including "killed by SIGSEGV"),
  // run_timeout, or worker_lost when the child cannot be started at all.
  std::vector<MeasureResult> Run(const std::vector<MeasureInput>& inputs,
                                 const std::vector<BuildResult>& builds,
                                 double best_seconds) override;
  std::string device_key() const override { return device_key_; }

  // Children started so far: 1 after the first candidate, one more after each candidate that
  // did not end ok (crash, hang, wrong answer, runtime error), which may have corrupted it.
  int children_started() const;

 private:
  explicit LocalRunner(LocalRunnerOptions options, std::string program, std::string device_key);
  MeasureResult Measure(const BuildResult& build, double best_seconds);

  LocalRunnerOptions options_;
  std::string device_key_;
  std::unique_ptr<runtime::measure::IsolatedMeasurer> measurer_;
};

// "local-" + the CPU model in lower case, its words joined by '-', trade marks, clock speed
// and words like "processor" dropped, at most 40 characters: "local-amd-epyc-7b13-64-core".
std::string LocalDeviceKey(const std::string& cpu_model);

}  // namespace tunefarm::tuner
