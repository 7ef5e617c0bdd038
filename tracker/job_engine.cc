// JobEngine: each job is a strand (its pipeline, an inbox of events and whether an event thread
// has it), so a job's events are handled in order by one thread at a time while other jobs run
// on the other event threads. Builds wait in one queue per job and build threads take the jobs
// in turn, so a job with many candidates cannot starve the others.
#include "tracker/job_engine.h"

#include <algorithm>
#include <condition_variable>
#include <deque>
#include <iterator>
#include <map>
#include <mutex>
#include <optional>
#include <thread>
#include <utility>
#include <vector>

namespace tunefarm::tracker {
namespace {

struct Strand {
  std::shared_ptr<JobPipeline> job;
  std::mutex mu;
  std::deque<PipelineEvent> inbox;
  bool scheduled = false;  // queued for or held by an event thread
};

}  // namespace

struct JobEngine::Core final : PipelineHost, std::enable_shared_from_this<JobEngine::Core> {
  Core(JobEngineOptions o, Dispatcher& d, LeaseSender& s, SharedRecordStore& r)
      : options(std::move(o)), dispatcher(d), sender(s), store(r) {
    build_threads = options.build_threads > 0
                        ? options.build_threads
                        : std::max(1, static_cast<int>(std::thread::hardware_concurrency()));
  }

  const JobEngineOptions options;
  Dispatcher& dispatcher;
  LeaseSender& sender;
  SharedRecordStore& store;
  int build_threads = 1;

  mutable std::mutex mu;
  std::condition_variable ready_cv;
  std::condition_variable build_cv;
  std::deque<std::shared_ptr<Strand>> ready;
  std::map<std::string, std::shared_ptr<Strand>> strands;   // jobs started and not ended
  std::map<std::string, std::deque<space::Config>> builds;  // queued, per job
  std::deque<std::string> build_turns;  // jobs with queued builds, in turn order
  bool stopping = false;
  int building = 0;
  int peak_building = 0;
  std::vector<std::thread> threads;

  // --- PipelineHost ---
  void QueueBuild(const std::string& job_id, space::Config config) override {
    std::lock_guard<std::mutex> lock(mu);
    if (stopping) return;
    std::deque<space::Config>& queue = builds[job_id];
    if (queue.empty()) build_turns.push_back(job_id);
    queue.push_back(std::move(config));
    build_cv.notify_one();
  }

  std::vector<space::Config> TakeQueuedBuilds(const std::string& job_id) override {
    std::lock_guard<std::mutex> lock(mu);
    return TakeQueuedBuildsLocked(job_id);
  }

  std::vector<space::Config> TakeQueuedBuilds(const std::string& job_id, size_t max) override {
    std::lock_guard<std::mutex> lock(mu);
    std::vector<space::Config> out;
    auto it = builds.find(job_id);
    if (it == builds.end()) return out;
    // The newest: the older ones are next for a build thread.
    while (out.size() < max && !it->second.empty()) {
      out.push_back(std::move(it->second.back()));
      it->second.pop_back();
    }
    if (it->second.empty()) {
      builds.erase(it);
      std::erase(build_turns, job_id);
    }
    return out;
  }

  Dispatcher::DoneCallback OutcomeCallback(const std::string& job_id,
                                           PipelineEvent event) override {
    std::weak_ptr<Core> weak = shared_from_this();
    return [weak, job_id, event = std::move(event)](const WorkOutcome& outcome) {
      std::shared_ptr<Core> core = weak.lock();
      if (core == nullptr) return;
      PipelineEvent e = event;
      e.outcome = outcome;
      core->Post(job_id, std::move(e));
    };
  }

  // --- under `mu` ---
  std::vector<space::Config> TakeQueuedBuildsLocked(const std::string& job_id) {
    std::vector<space::Config> out;
    auto it = builds.find(job_id);
    if (it == builds.end()) return out;
    out.assign(std::make_move_iterator(it->second.begin()),
               std::make_move_iterator(it->second.end()));
    builds.erase(it);
    std::erase(build_turns, job_id);
    return out;
  }

  // --- any thread ---
  void Post(const std::string& job_id, PipelineEvent event) {
    std::shared_ptr<Strand> strand;
    {
      std::lock_guard<std::mutex> lock(mu);
      if (stopping) return;
      auto it = strands.find(job_id);
      if (it == strands.end()) return;  // ended: late outcomes are not its business any more
      strand = it->second;
    }
    PostTo(strand, std::move(event));
  }

  void PostTo(const std::shared_ptr<Strand>& strand, PipelineEvent event) {
    bool schedule = false;
    {
      std::lock_guard<std::mutex> lock(strand->mu);
      strand->inbox.push_back(std::move(event));
      schedule = !strand->scheduled;
      strand->scheduled = true;
    }
    if (!schedule) return;
    std::lock_guard<std::mutex> lock(mu);
    if (stopping) return;
    ready.push_back(strand);
    ready_cv.notify_one();
  }

  void EventLoop() {
    for (;;) {
      std::shared_ptr<Strand> strand;
      {
        std::unique_lock<std::mutex> lock(mu);
        ready_cv.wait(lock, [&] { return stopping || !ready.empty(); });
        if (stopping) return;
        strand = std::move(ready.front());
        ready.pop_front();
      }
      for (;;) {
        std::vector<PipelineEvent> events;
        {
          std::lock_guard<std::mutex> lock(strand->mu);
          if (strand->inbox.empty()) {
            strand->scheduled = false;
            break;
          }
          events.assign(std::make_move_iterator(strand->inbox.begin()),
                        std::make_move_iterator(strand->inbox.end()));
          strand->inbox.clear();
        }
        strand->job->Handle(std::move(events));
        std::optional<JobEnd> end = strand->job->TakeEnd();
        {
          std::lock_guard<std::mutex> lock(mu);
          if (end) {
            auto it = strands.find(strand->job->job_id());
            if (it != strands.end() && it->second == strand) strands.erase(it);
            TakeQueuedBuildsLocked(strand->job->job_id());
          }
        }
        // Reported once the job is gone from the engine (running_jobs no longer counts it).
        if (end && options.on_end) options.on_end(strand->job->job_id(), *end);
        std::lock_guard<std::mutex> lock(mu);
        if (stopping) return;
      }
    }
  }

  void BuildLoop() {
    for (;;) {
      std::shared_ptr<Strand> strand;
      std::optional<space::Config> config;
      {
        std::unique_lock<std::mutex> lock(mu);
        build_cv.wait(lock, [&] { return stopping || !build_turns.empty(); });
        if (stopping) return;
        const std::string job_id = build_turns.front();
        build_turns.pop_front();
        std::deque<space::Config>& queue = builds[job_id];
        config = std::move(queue.front());
        queue.pop_front();
        if (queue.empty()) {
          builds.erase(job_id);
        } else {
          build_turns.push_back(job_id);  // its next build waits for the other jobs' turns
        }
        auto it = strands.find(job_id);
        if (it == strands.end()) continue;
        strand = it->second;
        peak_building = std::max(peak_building, ++building);
      }
      PipelineEvent built = strand->job->Build(*config);
      {
        std::lock_guard<std::mutex> lock(mu);
        --building;
      }
      PostTo(strand, std::move(built));
    }
  }

  void Shutdown() {
    std::vector<std::string> unfinished;
    std::vector<std::thread> joinable;
    {
      std::lock_guard<std::mutex> lock(mu);
      stopping = true;
      for (const auto& [id, strand] : strands) unfinished.push_back(id);
      joinable = std::move(threads);
      threads.clear();
      ready_cv.notify_all();
      build_cv.notify_all();
    }
    for (std::thread& t : joinable) t.join();
    // What the unfinished jobs still have queued or leased goes; their callbacks find the engine
    // stopping and post nothing.
    for (const std::string& id : unfinished) {
      std::vector<Withdrawal> withdrawals = dispatcher.CancelJob(id);
      if (!withdrawals.empty()) sender.Withdraw(std::move(withdrawals));
    }
    std::map<std::string, std::shared_ptr<Strand>> gone;
    {
      std::lock_guard<std::mutex> lock(mu);
      gone.swap(strands);
      ready.clear();
      builds.clear();
      build_turns.clear();
    }
  }
};

JobEngine::JobEngine(JobEngineOptions options, Dispatcher& dispatcher, LeaseSender& sender,
                     SharedRecordStore& store)
    : core_(std::make_shared<Core>(std::move(options), dispatcher, sender, store)) {
  Core* core = core_.get();
  std::lock_guard<std::mutex> lock(core->mu);
  for (int i = 0; i < std::max(1, core->options.event_threads); ++i) {
    core->threads.emplace_back([core] { core->EventLoop(); });
  }
  for (int i = 0; i < core->build_threads; ++i) {
    core->threads.emplace_back([core] { core->BuildLoop(); });
  }
}

JobEngine::~JobEngine() { Shutdown(); }

void JobEngine::Start(const std::string& job_id, farm_api::JobSpec spec,
                      std::unique_ptr<tuner::Task> task) {
  Core& core = *core_;
  JobPipelineContext context{core.dispatcher,
                             core.sender,
                             core,
                             core.store,
                             core.options.work_dir_parent,
                             core.build_threads,
                             core.options.max_artifact_bytes,
                             core.options.metrics,
                             core.options.clock,
                             core.options.on_progress,
                             core.options.build_placement};
  auto strand = std::make_shared<Strand>();
  strand->job =
      std::make_shared<JobPipeline>(job_id, std::move(spec), std::move(task), std::move(context));
  {
    std::lock_guard<std::mutex> lock(core.mu);
    if (core.stopping || core.strands.contains(job_id)) return;
    core.strands[job_id] = strand;
  }
  PipelineEvent start;
  start.kind = PipelineEvent::Kind::kStart;
  core.PostTo(strand, std::move(start));
}

void JobEngine::Stop(const std::string& job_id) {
  PipelineEvent stop;
  stop.kind = PipelineEvent::Kind::kStop;
  core_->Post(job_id, std::move(stop));
}

void JobEngine::Shutdown() { core_->Shutdown(); }

int JobEngine::build_threads() const { return core_->build_threads; }

int JobEngine::running_jobs() const {
  std::lock_guard<std::mutex> lock(core_->mu);
  return static_cast<int>(core_->strands.size());
}

int JobEngine::peak_builds() const {
  std::lock_guard<std::mutex> lock(core_->mu);
  return core_->peak_building;
}

}  // namespace tunefarm::tracker
