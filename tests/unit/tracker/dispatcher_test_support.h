// What the dispatcher's tests share: a key, workers and work of it, options with short timeouts,
// and the outcomes collected by function name. Header-only: the test glob compiles *_test.cc.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "tracker/dispatcher.h"

namespace tunefarm::tracker::testing {

inline constexpr char kKey[] = "cpu";

inline farm_api::WorkerDescription Worker(const std::string& id, const std::string& key = kKey) {
  farm_api::WorkerDescription d;
  d.worker_id = id;
  d.device_key = key;
  return d;
}

inline MeasureWork Work(const std::string& job, const std::string& name = "f",
                        const std::string& key = kKey) {
  MeasureWork w;
  w.job_id = job;
  w.device_key = key;
  w.function_name = name;
  w.options.run_timeout_s = 1;  // lease deadline: now + 2000 + slack
  w.options.min_repeat_ms = 0;  // (no time for the repeats on top: CandidateDeadlineSeconds)
  return w;
}

inline DispatcherOptions Options() {
  DispatcherOptions o;
  o.heartbeat_timeout_ms = 1000;
  o.lease_slack_ms = 500;
  o.max_attempts = 3;
  o.quarantine_after_workers = 2;
  return o;
}

// Collects every outcome by function name.
struct Outcomes {
  std::map<std::string, std::vector<WorkOutcome>> by_name;
  Dispatcher::DoneCallback For(const std::string& name) {
    return [this, name](const WorkOutcome& o) { by_name[name].push_back(o); };
  }
  int Count() const {
    int n = 0;
    for (const auto& [name, v] : by_name) n += static_cast<int>(v.size());
    return n;
  }
};

inline WorkOutcome Ok(double seconds = 1e-3) {
  WorkOutcome o;
  o.repeat_seconds = {seconds};
  return o;
}

}  // namespace tunefarm::tracker::testing
