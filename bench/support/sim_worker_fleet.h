// SimWorkerFleet: a load generator for the tracker's worker stream. Many simulated workers on
// 127.0.0.1, each one WorkerService::Connect stream (gRPC callback client API), register,
// heartbeat, and answer every lease with an ok result, at once or after a set hold time (a
// simulated measurement); it records each lease's dispatch latency (our previous result written
// to this lease received), by phase. gRPC types stay in the .cc.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "absl/status/statusor.h"

namespace tunefarm::bench {

struct SimFleetOptions {
  std::string tracker;  // "127.0.0.1:PORT": loopback only
  int workers = 1000;
  int workers_per_channel = 100;  // streams share a channel (one HTTP/2 connection) up to this
  std::string device_key = "sim";
  // Above 1: worker i registers as "<device_key>-<i % device_keys>" (SimDeviceKey).
  int device_keys = 1;
  double repeat_seconds = 1e-3;  // the time every result reports
};

struct SimFleetStats {
  int streams = 0;
  int registered = 0;         // streams that got `registered`
  int ended_ok = 0;           // streams that ended with OK after Stop()
  int ended_early = 0;        // streams that ended before Stop() (the tracker closed them)
  std::string first_error;    // the first non-OK end status, if any
  int64_t leases = 0;         // leases received (each answered at once)
  int64_t cancels = 0;        // CancelLease messages received
  int64_t library_bytes = 0;  // artifact bytes received (once per connection per hash)
  // By phase (index 0: before the first BeginPhase): per lease that followed one of our results
  // written in the same phase.
  std::vector<std::vector<double>> dispatch_latency_s;
  // Each received lease's function_name, which the benchmark uses to check exactly-once.
  std::vector<std::string> lease_functions;
};

// The device key of key number `k` of a fleet with `device_keys` keys.
std::string SimDeviceKey(const std::string& device_key, int device_keys, int k);

class SimWorkerFleet {
 public:
  // Opens every stream and returns at once; InvalidArgument unless the tracker is on 127.0.0.1.
  static absl::StatusOr<std::unique_ptr<SimWorkerFleet>> Start(SimFleetOptions options);
  ~SimWorkerFleet();  // Stop()

  // Waits until every stream is registered (true) or `timeout_s` passes / a stream ended (false).
  bool WaitRegistered(double timeout_s);
  int registered() const;
  int64_t leases() const;  // received so far, all streams

  // Starts the next phase (returns its index, from 1): from now on each lease is answered after
  // `hold_seconds` on average (uniform in 0.5x..1.5x; 0: at once), and latencies are recorded
  // under this phase.
  int BeginPhase(double hold_seconds);

  // Drops results still held, half-closes every stream once its queued writes are out, waits for
  // all of them to end (cancelling what is left after `timeout_s`), stops the heartbeats and
  // returns what was seen. Idempotent: later calls return the same stats.
  SimFleetStats Stop(double timeout_s = 10);

  struct Impl;

 private:
  explicit SimWorkerFleet(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

}  // namespace tunefarm::bench
