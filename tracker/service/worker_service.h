// WorkerService: the worker stream (Connect) on gRPC's callback API, one reactor per connected
// worker and no thread per worker. It registers workers with the Dispatcher, feeds it heartbeats,
// results and drains, and writes leases, cancellations and session calls back in order.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <string>

#include "proto/tunefarm/v1/worker.grpc.pb.h"
#include "runtime/clock.h"
#include "tracker/dispatcher.h"
#include "tracker/service/worker_links.h"

namespace tunefarm::tracker {

struct WorkerServiceOptions {
  std::string token;  // empty: no authentication
  int heartbeat_interval_ms = 2000;
  int heartbeat_timeout_ms = 10000;
  int64_t max_message_bytes = 256ll << 20;  // told to workers: their session replies must fit
  const runtime::Clock* clock = &runtime::SystemClock();  // registrations, heartbeats, leases
  // The tracker's runtime::measure::SpeedProbeSeconds(), against which each worker's slowness is
  // taken (0: measured when the service is made).
  double speed_probe_seconds = 0;
  // Called (on a gRPC thread, no service lock held) once a worker has registered, with its
  // device key: the tracker resumes the key's paused jobs.
  std::function<void(const std::string& device_key)> on_registered;
};

class WorkerService final : public v1::WorkerService::CallbackService {
 public:
  WorkerService(Dispatcher& dispatcher, WorkerLinks& links, WorkerServiceOptions options);

  grpc::ServerBidiReactor<v1::WorkerMessage, v1::TrackerMessage>* Connect(
      grpc::CallbackServerContext* context) override;

  // Streams whose reactor has not finished yet (for shutdown and tests).
  int64_t open_streams() const { return open_streams_.load(); }

  // The reactor's view of its service; public so the reactor in the .cc can reach it.
  Dispatcher& dispatcher() { return dispatcher_; }
  WorkerLinks& links() { return links_; }
  const WorkerServiceOptions& options() const { return options_; }
  std::string NextWorkerId(const std::string& hostname);
  std::atomic<int64_t>& open_streams_counter() { return open_streams_; }

 private:
  Dispatcher& dispatcher_;
  WorkerLinks& links_;
  WorkerServiceOptions options_;
  std::atomic<int64_t> next_worker_number_{1};
  std::atomic<int64_t> open_streams_{0};
};

}  // namespace tunefarm::tracker
