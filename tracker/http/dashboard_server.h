// DashboardServer: the tracker's web side (`tunefarm tracker --http 127.0.0.1:8080`): the
// dashboard pages (fleet, jobs with their charts, the workload leaderboard, a record's page), the
// JSON API under /api/ behind them, and /metrics for Prometheus. cpp-httplib stays in the .cc.
#pragma once

#include <memory>
#include <string>

#include "absl/status/statusor.h"
#include "runtime/clock.h"
#include "tracker/dispatcher.h"
#include "tracker/job_manager.h"
#include "tracker/metrics.h"
#include "tracker/model_job_manager.h"

namespace tunefarm::tuner {
class RecordStore;
}  // namespace tunefarm::tuner

namespace tunefarm::tracker {

struct DashboardOptions {
  std::string listen = "127.0.0.1:8080";  // port 0: an ephemeral port (see port())
  // Required (Authorization: Bearer, or ?token=) for anything that changes state, and for every
  // request from a non-loopback address; read-only pages are open on loopback. Empty: no check.
  std::string token;
  const runtime::Clock* clock = &runtime::SystemClock();  // "now" of the pages and the JSON
};

class DashboardServer {
 public:
  // `records` is the dashboard's own connection to the record database (its queries do not wait
  // behind the jobs' writes). Unavailable naming the address when it cannot listen.
  static absl::StatusOr<std::unique_ptr<DashboardServer>> Start(
      DashboardOptions options, Dispatcher& dispatcher, JobManager& jobs, const Metrics& metrics,
      std::unique_ptr<tuner::RecordStore> records, ModelJobManager* model_jobs = nullptr);
  ~DashboardServer();  // Stop()
  void Stop();         // idempotent
  int port() const;

  struct Impl;

 private:
  explicit DashboardServer(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

}  // namespace tunefarm::tracker
