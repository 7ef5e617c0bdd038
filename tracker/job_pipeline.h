// JobPipeline: one farm tuning job as an event-driven state machine. It keeps candidates in
// flight (building, queued or leased on its device key) up to a window that grows with the
// key's workers, turns each build into measurement work, records each result as it arrives and
// teaches the strategy in batches, so a key's workers always have leases waiting. The engine
// (job_engine.h) runs Handle on one thread at a time per job and Build on its build threads.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "farm_api/job.h"
#include "runtime/clock.h"
#include "tracker/build_placement.h"
#include "tracker/device_failure_run.h"
#include "tracker/dispatcher.h"
#include "tracker/job_runner.h"
#include "tracker/lease_sender.h"
#include "tracker/measure_work.h"
#include "tracker/shared_record_store.h"
#include "tuner/measure/local_builder.h"
#include "tuner/search/strategy_factory.h"
#include "tuner/task.h"
#include "tuner/tuning_session.h"

namespace tunefarm::tracker {

class Metrics;

// How a job's run ended.
struct JobEnd {
  absl::Status status;  // an infrastructure failure: the job failed
  bool interrupted = false;
  bool early_stopped = false;
  bool exhausted = false;
  // Non-empty: the job paused, for this reason (its key's devices failed its last trials in a
  // row); it is started again when a worker of the key registers.
  std::string paused;
};

// What happened to a job: the engine delivers these to Handle in order.
struct PipelineEvent {
  enum class Kind { kStart, kBuilt, kMeasured, kStop };
  Kind kind = Kind::kStart;
  std::optional<space::Config> config;  // kBuilt, kMeasured
  tuner::BuildResult build;             // kBuilt (kMeasured: only its build_seconds)
  // kBuilt and ok: the libraries' bytes, read on the build thread (the files are then gone).
  std::optional<Artifact> library;
  std::optional<Artifact> reference;
  bool cancelled = false;  // kBuilt: skipped because the job is stopping
  // kBuilt: a builder of the key built it (or did not); its answer is in `outcome`.
  bool by_builder = false;
  // kMeasured: who built it ("tracker", a builder's worker id); empty: the worker that measured
  // it built it from a BuildSpec and reported its own build time.
  std::string built_by;
  WorkOutcome outcome;  // kMeasured; kBuilt by a builder
};

// What a pipeline needs from the engine that runs it.
class PipelineHost {
 public:
  virtual ~PipelineHost() = default;
  // Queues `config` for a build thread, which calls Build and posts the kBuilt event back.
  virtual void QueueBuild(const std::string& job_id, space::Config config) = 0;
  // Takes back the job's builds no thread has started.
  virtual std::vector<space::Config> TakeQueuedBuilds(const std::string& job_id) = 0;
  // Takes back up to `max` of the job's builds no thread has started, the newest first.
  virtual std::vector<space::Config> TakeQueuedBuilds(const std::string& job_id, size_t max) = 0;
  // The dispatcher's done callback for one piece of work: from any thread, it posts `event` with
  // the work's outcome to the job, and does nothing once the engine or the job is gone.
  virtual Dispatcher::DoneCallback OutcomeCallback(const std::string& job_id,
                                                   PipelineEvent event) = 0;
};

struct JobPipelineContext {
  Dispatcher& dispatcher;
  LeaseSender& sender;
  PipelineHost& host;
  SharedRecordStore& store;
  std::string work_dir_parent;  // the job's scratch directory goes here; empty: $TMPDIR or /tmp
  int build_threads = 1;        // how many of the job's builds may run at once
  int64_t max_artifact_bytes = 64ll << 20;
  Metrics* metrics = nullptr;  // record writes are timed
  const runtime::Clock* clock = &runtime::SystemClock();
  // Called from Handle (an engine thread), without engine locks held.
  std::function<void(const std::string& job_id, const farm_api::JobProgress&)> on_progress;
  BuildPlacement build_placement = BuildPlacement::kAuto;
};

class JobPipeline {
 public:
  // `task` may be null: it is made from the spec when the job starts.
  JobPipeline(std::string job_id, farm_api::JobSpec spec, std::unique_ptr<tuner::Task> task,
              JobPipelineContext context);
  ~JobPipeline();
  JobPipeline(const JobPipeline&) = delete;
  JobPipeline& operator=(const JobPipeline&) = delete;

  const std::string& job_id() const { return job_id_; }

  // Applies events in order, then proposes more candidates and ends the job once nothing is in
  // flight and nothing more will be proposed. One thread at a time.
  void Handle(std::vector<PipelineEvent> events);
  // How the job ended, once: set by the Handle call that ended it.
  std::optional<JobEnd> TakeEnd() { return std::exchange(end_, std::nullopt); }
  bool ended() const { return ended_; }

  // Builds one candidate and reads its libraries (a kBuilt event). Any thread, concurrently.
  PipelineEvent Build(const space::Config& config);

 private:
  void Begin();
  void Stop();
  void Fail(const absl::Status& status);
  void OnBuilt(PipelineEvent& e, std::vector<space::Config>& configs,
               std::vector<tuner::MeasureResult>& results);
  // Turns a builder's answer (kBuilt by_builder) into the build's result in `e`; false when the
  // builder could not make it, or left, and the candidate went to be built elsewhere.
  bool FromBuilder(PipelineEvent& e);
  // What is wrong with a builder's library for this job's target: "a library built for x86_64,
  // and the job's target ... is aarch64 (...)", or "" when its architecture is the target's.
  std::string WrongMachine(const BuiltLibraries& built) const;
  void Refill();
  // The key's workers can build their own candidates: there are some and every one of them can.
  bool WorkersCanBuild() const;
  // The key has builders (`tunefarm worker --build-only`) that have not refused this job's task.
  bool BuildersCanBuild() const;
  void SubmitToBuildingWorkers(space::Config config);
  void SubmitToBuilders(space::Config config);
  // A candidate its measuring worker did not build: kWorkers sends it to the key's builders,
  // else it goes to the tracker's build threads (where kAuto's offload may find it).
  void BuildElsewhere(space::Config config);
  void SubmitMeasurement(MeasureWork work, space::Config config, double build_seconds,
                         std::string built_by);
  // BuildPlacement::kAuto: the key's idle builders, then its idle workers, with nothing queued
  // for them take this job's unstarted builds and compile them themselves.
  void OffloadToIdleWorkers();
  MeasureWork NewWork() const;
  void EndIfDone();
  void ReportProgress();
  absl::StatusOr<Artifact> ReferenceArtifact(const std::string& path);

  const std::string job_id_;
  const farm_api::JobSpec spec_;
  JobPipelineContext context_;
  std::unique_ptr<tuner::Task> task_;
  std::unique_ptr<tuner::StrategyBundle> strategy_;
  std::unique_ptr<tuner::LocalBuilder> builder_;
  std::unique_ptr<tuner::TuningSession> session_;
  tuner::TuneOptions tune_options_;
  farm_api::JobProgress base_;              // the job's records from before this start
  runtime::measure::BuildSpec build_spec_;  // every candidate's, less its config
  std::atomic<bool> stop_{false};
  DeviceFailureRun device_failures_;  // results in a row that failed on the key's devices
  std::string pause_reason_;          // set when that run stopped the job (JobEnd::paused)
  bool started_ = false;
  // Workers and builders that could not make the task (a template they do not know): while one
  // of them is connected the job's candidates are built elsewhere, and never sent to them.
  std::set<std::string> refused_by_workers_;
  std::set<std::string> refused_by_builders_;
  bool ended_ = false;
  std::optional<JobEnd> end_;
  // Reference libraries by path, read once (build threads share them).
  std::mutex references_mu_;
  std::map<std::string, Artifact> references_;
};

}  // namespace tunefarm::tracker
