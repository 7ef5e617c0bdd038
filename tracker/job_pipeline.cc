#include "tracker/job_pipeline.h"

#include <algorithm>
#include <chrono>
#include <unistd.h>
#include <utility>

#include "absl/strings/str_cat.h"
#include "compiler/space/config_json.h"
#include "compiler/target/target.h"
#include "runtime/core/elf_machine.h"
#include "spdlog/spdlog.h"
#include "tracker/metrics.h"
#include "tuner/search/task_tuning_setup.h"
#include "tuner/templates/template_registry.h"

namespace tunefarm::tracker {
namespace {

constexpr const char* kTrackerSide = "tracker";  // measured_by of results no worker produced

tuner::MeasureResult Failed(tuner::ErrorKind kind, std::string message, double build_seconds) {
  tuner::MeasureResult r;
  r.error_kind = kind;
  r.error_message = std::move(message);
  r.build_seconds = build_seconds;
  r.measured_by = kTrackerSide;
  r.built_by = kTrackerSide;
  return r;
}

tuner::MeasureResult Cancelled() {
  tuner::MeasureResult r;
  r.cancelled = true;
  return r;
}

}  // namespace

JobPipeline::JobPipeline(std::string job_id, farm_api::JobSpec spec,
                         std::unique_ptr<tuner::Task> task, JobPipelineContext context)
    : job_id_(std::move(job_id)),
      spec_(std::move(spec)),
      context_(std::move(context)),
      task_(std::move(task)) {}

JobPipeline::~JobPipeline() = default;

void JobPipeline::Handle(std::vector<PipelineEvent> events) {
  if (ended_) return;
  std::vector<space::Config> configs;
  std::vector<tuner::MeasureResult> results;
  for (PipelineEvent& e : events) {
    if (ended_) return;
    switch (e.kind) {
      case PipelineEvent::Kind::kStart:
        Begin();
        break;
      case PipelineEvent::Kind::kStop:
        Stop();
        break;
      case PipelineEvent::Kind::kBuilt:
        OnBuilt(e, configs, results);
        break;
      case PipelineEvent::Kind::kMeasured: {
        if (e.outcome.unbuilt && !stop_) {
          // The key's last building worker left, or a worker cannot make this job's task (a
          // template it does not know): it is built elsewhere, and while that worker is
          // connected so are the rest.
          if (!e.outcome.worker_id.empty() &&
              refused_by_workers_.insert(e.outcome.worker_id).second) {
            spdlog::warn(
                "job {}: worker {} cannot build its candidates ({}); they are built "
                "elsewhere while it is connected",
                job_id_, e.outcome.worker_id, e.outcome.error_message);
          }
          BuildElsewhere(*std::move(e.config));
          break;
        }
        const bool worker_built = e.built_by.empty();
        tuner::MeasureResult r;
        r.build_seconds = worker_built ? e.outcome.build_seconds : e.build.build_seconds;
        if (e.outcome.cancelled || e.outcome.unbuilt) {
          r.cancelled = true;
        } else {
          r.error_kind = e.outcome.error_kind;
          r.error_message = std::move(e.outcome.error_message);
          r.repeat_seconds = std::move(e.outcome.repeat_seconds);
          r.canary_ratio = e.outcome.canary_ratio;
          r.noisy = e.outcome.noisy;
          r.emulated = e.outcome.emulated;
          r.measured_by = e.outcome.worker_id.empty() ? kTrackerSide : e.outcome.worker_id;
          // A lease lost on every try was built by nobody we can name.
          r.built_by = worker_built ? e.outcome.worker_id : e.built_by;
        }
        configs.push_back(*std::move(e.config));
        results.push_back(std::move(r));
        break;
      }
    }
  }
  if (ended_ || !started_) return;
  bool broken_devices = false;
  for (const tuner::MeasureResult& r : results) {
    if (!r.cancelled && device_failures_.Add(r.error_kind, spec_.device_key, r.error_message)) {
      broken_devices = true;
    }
  }
  if (!configs.empty()) {
    // Every result that arrived since the last call, stored in one transaction before the
    // strategy learns from it: a tracker killed from here on loses nothing measured.
    const bool writes = std::any_of(results.begin(), results.end(),
                                    [](const tuner::MeasureResult& r) { return !r.cancelled; });
    const auto write_start = std::chrono::steady_clock::now();
    absl::Status s = context_.store.With(
        [&](tuner::RecordStore&) { return session_->Complete(configs, std::move(results)); });
    if (context_.metrics != nullptr && writes) {
      context_.metrics->ObserveDbWrite(
          std::chrono::duration<double>(std::chrono::steady_clock::now() - write_start).count());
    }
    if (!s.ok()) return Fail(s);
    ReportProgress();
  }
  // After the results are stored: the job keeps every trial it made, and the rest of its budget
  // for when its devices work again.
  if (broken_devices && !stop_) {
    pause_reason_ = device_failures_.Reason();
    spdlog::warn("job {}: pausing: {}", job_id_, pause_reason_);
    Stop();
  }
  Refill();
  OffloadToIdleWorkers();
  EndIfDone();
}

void JobPipeline::OffloadToIdleWorkers() {
  if (ended_ || !started_ || stop_ || context_.build_placement != BuildPlacement::kAuto) return;
  // Builders first: their builds idle no device.
  if (BuildersCanBuild()) {
    const BuildOnlyCounts builders = context_.dispatcher.BuildOnlyFor(spec_.device_key);
    const int waiting = builders.idle - builders.queued;
    if (waiting > 0) {
      for (space::Config& c :
           context_.host.TakeQueuedBuilds(job_id_, static_cast<size_t>(waiting))) {
        SubmitToBuilders(std::move(c));
      }
    }
  }
  if (!WorkersCanBuild()) return;
  const int waiting = context_.dispatcher.IdleFor(spec_.device_key) -
                      context_.dispatcher.QueuedFor(spec_.device_key);
  if (waiting <= 0) return;
  for (space::Config& c : context_.host.TakeQueuedBuilds(job_id_, static_cast<size_t>(waiting))) {
    SubmitToBuildingWorkers(std::move(c));
  }
}

void JobPipeline::Begin() {
  if (started_) return;
  if (task_ == nullptr) {
    absl::StatusOr<std::unique_ptr<tuner::Task>> made = MakeJobTask(spec_);
    if (!made.ok()) return Fail(made.status());
    task_ = *std::move(made);
  }
  tuner::LocalBuilderOptions build;
  build.work_dir_parent = context_.work_dir_parent;
  build.parallelism = 1;  // one candidate per call; the engine's build threads run the calls
  build.measure = spec_.measure;
  // Each library is read right after its build; older ones may go once every build thread has
  // started a few more.
  build.keep_batches = 4 * std::max(context_.build_threads, 1) + 8;
  absl::StatusOr<std::unique_ptr<tuner::LocalBuilder>> builder = tuner::LocalBuilder::Create(build);
  if (!builder.ok()) return Fail(builder.status());
  builder_ = *std::move(builder);
  absl::StatusOr<runtime::measure::BuildSpec> build_spec = JobBuildSpec(spec_);
  if (!build_spec.ok()) return Fail(build_spec.status());
  build_spec_ = *std::move(build_spec);
  // The canonical target ("llvm" resolved to the tracker's CPU, as the records are keyed): a
  // worker or builder resolving a bare "llvm" to its own CPU would make another config space.
  build_spec_.target = task_->target().str();

  absl::Status started = context_.store.With([&](tuner::RecordStore& store) -> absl::Status {
    absl::StatusOr<tuner::TaskTuningSetup> setup =
        tuner::SetUpTaskTuning(*task_, spec_, spec_.device_key, store);
    if (!setup.ok()) return setup.status();
    absl::StatusOr<farm_api::JobProgress> base =
        JobProgressFromStore(store, job_id_, task_->key(), task_->target().str(), spec_.device_key,
                             setup->tune.cache_flush);
    if (!base.ok()) return base.status();
    base_ = *base;
    strategy_ = std::move(setup->strategy);
    if (!strategy_->transfer_summary.empty()) {
      spdlog::info("job {}: {}", job_id_, strategy_->transfer_summary);
    }
    tune_options_ = std::move(setup->tune);
    // A resumed job owes what its records do not cover yet.
    tune_options_.trials = std::max(spec_.trials - base_.trials_done, 0);
    tune_options_.job_id = job_id_;
    tune_options_.clock = context_.clock;
    tune_options_.resume = true;
    tune_options_.stop = &stop_;
    session_ = std::make_unique<tuner::TuningSession>(*task_, *strategy_->strategy, &store,
                                                      spec_.device_key, tune_options_);
    return session_->Start();
  });
  if (!started.ok()) return Fail(started);
  started_ = true;
  context_.dispatcher.SetJobWeight(job_id_, spec_.priority);
  if (context_.on_progress) context_.on_progress(job_id_, base_);
}

void JobPipeline::Stop() {
  stop_ = true;
  if (!started_) {
    ended_ = true;
    JobEnd end;
    end.interrupted = true;
    end_ = end;
    return;
  }
  std::vector<space::Config> unbuilt = context_.host.TakeQueuedBuilds(job_id_);
  if (!unbuilt.empty()) {
    std::vector<tuner::MeasureResult> cancelled(unbuilt.size(), Cancelled());
    absl::Status s = context_.store.With(
        [&](tuner::RecordStore&) { return session_->Complete(unbuilt, std::move(cancelled)); });
    if (!s.ok()) return Fail(s);
  }
  // The cancelled work's callbacks run inside CancelJob and post kMeasured events, which end the
  // job once nothing is in flight.
  std::vector<Withdrawal> withdrawals = context_.dispatcher.CancelJob(job_id_);
  if (!withdrawals.empty()) context_.sender.Withdraw(std::move(withdrawals));
}

void JobPipeline::Fail(const absl::Status& status) {
  stop_ = true;
  ended_ = true;
  spdlog::error("job {}: {}", job_id_, status.ToString());
  context_.host.TakeQueuedBuilds(job_id_);
  std::vector<Withdrawal> withdrawals = context_.dispatcher.CancelJob(job_id_);
  if (!withdrawals.empty()) context_.sender.Withdraw(std::move(withdrawals));
  JobEnd end;
  end.status = status;
  end_ = end;
}

PipelineEvent JobPipeline::Build(const space::Config& config) {
  PipelineEvent e;
  e.kind = PipelineEvent::Kind::kBuilt;
  e.config = config;
  if (stop_.load()) {
    e.cancelled = true;
    return e;
  }
  std::vector<tuner::BuildResult> built =
      builder_->Build({tuner::MeasureInput{task_.get(), config}});
  if (built.empty()) {
    e.build.error_kind = tuner::ErrorKind::kBuildError;
    e.build.error_message = "the builder returned no result";
    return e;
  }
  e.build = std::move(built[0]);
  if (e.build.error_kind != tuner::ErrorKind::kOk) return e;
  absl::StatusOr<Artifact> library =
      LoadArtifact(e.build.library_path, context_.max_artifact_bytes);
  unlink(e.build.library_path.c_str());  // in memory now; the worker gets the bytes
  if (!library.ok()) {
    e.build.error_kind = tuner::ErrorKind::kBuildError;
    e.build.error_message = std::string(library.status().message());
    return e;
  }
  e.library = *std::move(library);
  if (spec_.measure.check_correctness && !e.build.reference_library_path.empty()) {
    absl::StatusOr<Artifact> reference = ReferenceArtifact(e.build.reference_library_path);
    if (!reference.ok()) {
      e.build.error_kind = tuner::ErrorKind::kBuildError;
      e.build.error_message = absl::StrCat("reference: ", reference.status().message());
      e.library.reset();
      return e;
    }
    e.reference = *std::move(reference);
  }
  return e;
}

absl::StatusOr<Artifact> JobPipeline::ReferenceArtifact(const std::string& path) {
  std::lock_guard<std::mutex> lock(references_mu_);
  auto it = references_.find(path);
  if (it != references_.end()) return it->second;
  absl::StatusOr<Artifact> loaded = LoadArtifact(path, context_.max_artifact_bytes);
  if (!loaded.ok()) return loaded.status();
  return references_.emplace(path, *std::move(loaded)).first->second;
}

void JobPipeline::OnBuilt(PipelineEvent& e, std::vector<space::Config>& configs,
                          std::vector<tuner::MeasureResult>& results) {
  if (e.by_builder && !FromBuilder(e)) return;
  if (e.cancelled || stop_) {
    configs.push_back(*std::move(e.config));
    results.push_back(Cancelled());
    return;
  }
  const std::string built_by = e.by_builder ? e.outcome.worker_id : kTrackerSide;
  if (e.build.error_kind != tuner::ErrorKind::kOk || !e.library) {
    configs.push_back(*std::move(e.config));
    tuner::MeasureResult r =
        Failed(e.build.error_kind, std::move(e.build.error_message), e.build.build_seconds);
    r.built_by = built_by;  // empty: a builder's leases were lost on every try
    results.push_back(std::move(r));
    return;
  }
  MeasureWork work = NewWork();
  work.library = *std::move(e.library);
  work.function_name = e.build.function_name;
  work.options.check_correctness = e.reference.has_value();
  if (e.reference) {
    work.reference = *std::move(e.reference);
    work.reference_key = e.build.reference_key;
  }
  SubmitMeasurement(std::move(work), *std::move(e.config), e.build.build_seconds, built_by);
}

bool JobPipeline::FromBuilder(PipelineEvent& e) {
  WorkOutcome& o = e.outcome;
  if (o.unbuilt && !stop_) {
    // Its last builder left, or a builder cannot make this job's task: another builder or the
    // tracker builds it, and the job sends that builder nothing more.
    if (!o.worker_id.empty() && refused_by_builders_.insert(o.worker_id).second) {
      spdlog::warn(
          "job {}: builder {} cannot build its candidates ({}); other builders or the "
          "tracker build them",
          job_id_, o.worker_id, o.error_message);
    }
    BuildElsewhere(*std::move(e.config));
    return false;
  }
  e.build.build_seconds = o.build_seconds;
  if (o.cancelled || o.unbuilt) {
    e.cancelled = true;
  } else if (o.error_kind != tuner::ErrorKind::kOk) {
    e.build.error_kind = o.error_kind;  // its build failed, or its leases were lost
    e.build.error_message = o.error_message;
  } else if (!o.built) {
    e.build.error_kind = tuner::ErrorKind::kBuildError;  // the dispatcher lets none through
    e.build.error_message = "the builder sent no library";
  } else if (std::string wrong = WrongMachine(*o.built); !wrong.empty()) {
    // Never leased to a device, which could not load it: a build error naming both.
    e.build.error_kind = tuner::ErrorKind::kBuildError;
    e.build.error_message = absl::StrCat("builder ", o.worker_id, " sent ", wrong);
  } else {
    e.build.function_name = o.built->function_name;
    e.build.reference_key = o.built->reference_key;
    e.library = o.built->library;
    if (spec_.measure.check_correctness) e.reference = o.built->reference;
  }
  return true;
}

std::string JobPipeline::WrongMachine(const BuiltLibraries& built) const {
  if (task_->target().is_gpu() || built.library.bytes == nullptr) return "";
  const std::string want = runtime::TripleMachine(task_->target().llvm().triple);
  const std::string got = runtime::ElfMachine(*built.library.bytes);
  if (want.empty() || got.empty() || got == want) return "";
  return absl::StrCat("a library built for ", got, ", and the job's target '",
                      target::DisplayTarget(task_->target().str()), "' is ", want,
                      " (is the builder's --target for another architecture?)");
}

void JobPipeline::SubmitMeasurement(MeasureWork work, space::Config config, double build_seconds,
                                    std::string built_by) {
  PipelineEvent measured;
  measured.kind = PipelineEvent::Kind::kMeasured;
  measured.config = std::move(config);
  measured.build.build_seconds = build_seconds;
  measured.built_by = std::move(built_by);
  Dispatcher::DoneCallback done = context_.host.OutcomeCallback(job_id_, std::move(measured));
  context_.sender.Send(
      context_.dispatcher.Submit(std::move(work), std::move(done), context_.clock->NowMs()));
}

MeasureWork JobPipeline::NewWork() const {
  MeasureWork work;
  work.job_id = job_id_;
  work.device_key = spec_.device_key;
  work.options = spec_.measure;
  work.best_seconds = session_->progress().best_seconds;
  return work;
}

bool JobPipeline::WorkersCanBuild() const {
  // Every worker of the key, or the tracker's builds would leave the others idle.
  const int builders = context_.dispatcher.BuildersFor(spec_.device_key, refused_by_workers_);
  return builders > 0 && builders == context_.dispatcher.WorkersFor(spec_.device_key);
}

bool JobPipeline::BuildersCanBuild() const {
  return context_.build_placement != BuildPlacement::kTracker &&
         context_.dispatcher.BuildOnlyFor(spec_.device_key, refused_by_builders_).builders > 0;
}

void JobPipeline::SubmitToBuildingWorkers(space::Config config) {
  MeasureWork work = NewWork();
  work.build = build_spec_;
  work.build->config_json = space::ConfigToJson(config);
  work.not_for = refused_by_workers_;
  // built_by stays empty: the worker that measures it builds it.
  PipelineEvent measured;
  measured.kind = PipelineEvent::Kind::kMeasured;
  measured.config = std::move(config);
  Dispatcher::DoneCallback done = context_.host.OutcomeCallback(job_id_, std::move(measured));
  context_.sender.Send(
      context_.dispatcher.Submit(std::move(work), std::move(done), context_.clock->NowMs()));
}

void JobPipeline::SubmitToBuilders(space::Config config) {
  MeasureWork work = NewWork();
  work.build = build_spec_;
  work.build->config_json = space::ConfigToJson(config);
  work.build_only = true;
  work.not_for = refused_by_builders_;
  PipelineEvent built;
  built.kind = PipelineEvent::Kind::kBuilt;
  built.config = std::move(config);
  built.by_builder = true;
  Dispatcher::DoneCallback done = context_.host.OutcomeCallback(job_id_, std::move(built));
  context_.sender.Send(
      context_.dispatcher.Submit(std::move(work), std::move(done), context_.clock->NowMs()));
}

void JobPipeline::BuildElsewhere(space::Config config) {
  // kAuto: the tracker's build threads, from which idle builders and workers take what waits.
  if (context_.build_placement == BuildPlacement::kWorkers && BuildersCanBuild()) {
    SubmitToBuilders(std::move(config));
  } else {
    context_.host.QueueBuild(job_id_, std::move(config));
  }
}

void JobPipeline::Refill() {
  if (ended_ || !started_ || stop_) return;
  // Enough in flight that every worker of the key has a lease and another waiting, and at least
  // a batch; proposals come in chunks of half a batch, so the strategy's search runs rarely.
  const int window =
      std::max(spec_.batch_size, 2 * context_.dispatcher.WorkersFor(spec_.device_key));
  const int chunk = std::max(1, spec_.batch_size / 2);
  if (session_->in_flight() > window - chunk) return;
  absl::StatusOr<std::vector<space::Config>> configs =
      session_->Propose(window - session_->in_flight());
  if (!configs.ok()) return Fail(configs.status());
  // kWorkers: every candidate goes out to build while the key's workers all can, else to the
  // key's builders; else it is built here first (kAuto offloads to idle builders and workers
  // what they would otherwise wait for). A key without workers yet builds here, so its first
  // leases are ready when they come.
  const bool to_workers = context_.build_placement == BuildPlacement::kWorkers && WorkersCanBuild();
  for (space::Config& c : *configs) {
    if (to_workers) {
      SubmitToBuildingWorkers(std::move(c));
    } else {
      BuildElsewhere(std::move(c));
    }
  }
}

void JobPipeline::EndIfDone() {
  if (ended_ || !started_ || !session_->done()) return;
  absl::StatusOr<tuner::TuneSummary> summary =
      context_.store.With([&](tuner::RecordStore&) { return session_->Finish(); });
  if (!summary.ok()) return Fail(summary.status());
  ended_ = true;
  JobEnd end;
  end.interrupted = summary->interrupted;
  end.early_stopped = summary->early_stopped;
  end.exhausted = summary->exhausted;
  end.paused = pause_reason_;
  end_ = end;
}

void JobPipeline::ReportProgress() {
  if (!context_.on_progress) return;
  const tuner::TuneProgress& p = session_->progress();
  farm_api::JobProgress now = base_;
  now.trials_done += p.trials_done;
  now.errors += p.errors;
  for (const auto& [kind, n] : p.error_counts) {
    now.error_counts[std::string(tuner::ErrorKindName(kind))] += n;
  }
  if (p.best_seconds > 0) {
    now.best_seconds = p.best_seconds;
    now.best_gflops = p.best_gflops;
    now.best_config_json = p.best_config_json;
  }
  context_.on_progress(job_id_, now);
}

}  // namespace tunefarm::tracker
