// JobEngine: runs the farm's tuning jobs (JobPipeline) on a small fixed set of threads: event
// threads that advance jobs as their builds and measurements finish (one thread at a time per
// job), and build threads that compile candidates, taking the jobs' queued builds in turn. No
// thread per job and no cap on running jobs; the dispatcher shares each key's workers between
// jobs by priority.
#pragma once

#include <memory>
#include <string>

#include "tracker/job_pipeline.h"

namespace tunefarm::tracker {

struct JobEngineOptions {
  int event_threads = 2;
  int build_threads = 0;        // candidates compiled at once across all jobs; 0: hardware threads
  std::string work_dir_parent;  // scratch for built libraries; empty: $TMPDIR or /tmp
  int64_t max_artifact_bytes = 64ll << 20;
  BuildPlacement build_placement = BuildPlacement::kAuto;
  Metrics* metrics = nullptr;
  const runtime::Clock* clock = &runtime::SystemClock();
  // Called on engine threads without engine locks held; they must not call back into the
  // engine synchronously except Stop.
  std::function<void(const std::string& job_id, const farm_api::JobProgress&)> on_progress;
  std::function<void(const std::string& job_id, const JobEnd&)> on_end;
};

class JobEngine {
 public:
  // `dispatcher`, `sender` and `store` must outlive the engine.
  JobEngine(JobEngineOptions options, Dispatcher& dispatcher, LeaseSender& sender,
            SharedRecordStore& store);
  // Shutdown().
  ~JobEngine();
  JobEngine(const JobEngine&) = delete;
  JobEngine& operator=(const JobEngine&) = delete;

  // Starts the job; its end is reported once through on_end. `task` may be null (made from the
  // spec). A job id already running is ignored.
  void Start(const std::string& job_id, farm_api::JobSpec spec, std::unique_ptr<tuner::Task> task);
  // Stops proposing and building, cancels its queued and leased work, and ends the job
  // (interrupted) once nothing is in flight. Unknown or ended jobs are ignored.
  void Stop(const std::string& job_id);
  // Stops every thread. Jobs that have not ended never report an end (a tracker going down
  // leaves them running in its database, to resume); their queued and leased work is withdrawn.
  void Shutdown();

  int build_threads() const;
  int running_jobs() const;  // started and not ended
  int peak_builds() const;   // the most builds ever running at once (tests check the limit)

  struct Core;

 private:
  std::shared_ptr<Core> core_;
};

}  // namespace tunefarm::tracker
