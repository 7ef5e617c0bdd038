// TrackerServer: the tracker process's gRPC side. It serves the worker stream (WorkerService),
// the client API (TrackerService) and remote sessions (SessionService) on one port, checks the
// token on every call, and wires them to the Dispatcher and the JobManager it owns. gRPC types
// stay out of this header so that the command line and tests include it cheaply.
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "absl/status/statusor.h"
#include "runtime/clock.h"
#include "tracker/dispatcher.h"
#include "tracker/job_manager.h"
#include "tracker/metrics.h"
#include "tracker/model_job_manager.h"

namespace tunefarm::tracker {

struct TrackerServerOptions {
  std::string listen = "127.0.0.1:9190";  // port 0: an ephemeral port (see port())
  std::string db_path;                    // the record database (created if missing)
  std::string token;                      // empty: no authentication
  // TLS: both set to serve TLS (PEM files); otherwise plaintext (loopback and trusted LANs).
  std::string tls_cert_file;
  std::string tls_key_file;
  DispatcherOptions dispatcher;
  JobManagerOptions jobs;  // metrics and clock are filled from above
  int heartbeat_interval_ms = 2000;
  int64_t max_message_bytes = 256ll << 20;
  int tick_interval_ms = 200;  // how often leases and heartbeats are checked
  // The web dashboard, JSON API and /metrics (tracker/http/dashboard_server.h), e.g.
  // "127.0.0.1:8080" (port 0: ephemeral, see http_port()); same token and database. Empty: off.
  std::string http_listen;
  // The wall clock of every part (jobs, leases, heartbeats, sessions, pages); tests inject one.
  const runtime::Clock* clock = &runtime::SystemClock();
};

class TrackerServer {
 public:
  // Locks the database for this tracker's life (tracker/database_lock.h), opens it (resuming
  // unfinished jobs), binds the port and starts serving. InvalidArgument for bad options,
  // FailedPrecondition when another tracker has the database, Unavailable when the address
  // cannot be bound.
  static absl::StatusOr<std::unique_ptr<TrackerServer>> Start(TrackerServerOptions options);
  ~TrackerServer();  // Shutdown()

  int port() const;
  int http_port() const;        // the dashboard's port; 0 when it is off
  std::string address() const;  // "127.0.0.1:<port>"
  // Stops accepting calls, closes the worker streams, stops the job engine (unfinished jobs stay
  // resumable). Idempotent.
  void Shutdown();
  // Blocks until Shutdown() is called from another thread (or a signal handler's helper).
  void Wait();

  Dispatcher& dispatcher();
  JobManager& jobs();
  ModelJobManager& model_jobs();
  // Delivers the dispatcher's leases to the connected workers (for work fed in directly).
  LeaseSender& lease_sender();
  // What the dispatcher and the jobs count (results, dispatch and database write latency); the
  // dashboard renders it with RenderMetricsText for /metrics.
  const Metrics& metrics() const;

  struct Impl;

 private:
  explicit TrackerServer(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

}  // namespace tunefarm::tracker
