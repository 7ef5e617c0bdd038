// DeviceFailureRun: a job's results in a row that failed on its devices (runtime_error,
// run_timeout, worker_lost). A broken board or a measure child that cannot start fails every
// candidate alike; past a run of these the job pauses with the reason instead of spending the
// rest of its budget on the same error (farm_api::JobState::kPaused). A success ends the run; build
// errors and wrong answers are the candidate's, not the device's, and leave it as it is.
#pragma once

#include <string>

#include "tuner/record.h"

namespace tunefarm::tracker {

class DeviceFailureRun {
 public:
  // Pauses a job after this many: more than a batch or two of candidates a template rarely
  // crashes, fewer than a budget worth saving.
  static constexpr int kLimit = 16;

  // Counts a result; true once the run has reached kLimit.
  bool Add(tuner::ErrorKind kind, const std::string& device_key, const std::string& message);
  int length() const { return length_; }
  // Why the job pauses: "the last 16 trials failed on the devices of 'rpi' (runtime_error: ...);
  // ...".
  std::string Reason() const;

 private:
  int length_ = 0;
  std::string device_key_;
  tuner::ErrorKind last_kind_ = tuner::ErrorKind::kOk;
  std::string last_message_;
};

}  // namespace tunefarm::tracker
