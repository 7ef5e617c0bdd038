#include "tuner/measure/local_builder.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdlib>
#include <deque>
#include <functional>
#include <map>
#include <mutex>
#include <optional>
#include <thread>
#include <unistd.h>

#include "absl/strings/str_cat.h"
#include "runtime/measure/host_timing_lock.h"
#include "spdlog/spdlog.h"
#include "tuner/measure/candidate_build.h"
#include "tuner/measure/reference_libraries.h"
#include "tuner/measure/work_dir.h"

namespace tunefarm::tuner {

using Clock = std::chrono::steady_clock;
namespace rm = runtime::measure;

// Late builds still running in this process, over all builders: a builder's own count ends with
// the builder, but the threads it abandoned may outlive it.
struct ProcessLateBuilds {
  std::mutex mu;
  std::condition_variable cv;
  int running = 0;

  void Started() {
    std::lock_guard<std::mutex> lock(mu);
    ++running;
  }
  void Ended() {
    std::lock_guard<std::mutex> lock(mu);
    --running;
    cv.notify_all();
  }

  // Called when a build has ended, so that the statics LLVM and our code generation build on
  // first use exist by then: a handler registered after a static object was built runs before
  // that object is destroyed, so the late builds the hook waits for still have them (and
  // spdlog's registry, made sure of here too).
  static void RegisterExitWait() {
    static std::once_flag registered;
    std::call_once(registered, [] {
      spdlog::default_logger_raw();
      std::atexit(WaitAtExit);
    });
  }

  static void WaitAtExit();
};

// Never destroyed: late threads may still reach it while static destructors run.
ProcessLateBuilds& LateBuildsOfThisProcess() {
  static auto* late = new ProcessLateBuilds;
  return *late;
}

// A process that ends while a late build runs would tear down the logger and LLVM under it, so
// exit waits for them, within a bound: a build that never ends must not keep the process alive.
void ProcessLateBuilds::WaitAtExit() {
  constexpr double kExitWaitSeconds = 120;
  ProcessLateBuilds& late = LateBuildsOfThisProcess();
  std::unique_lock<std::mutex> lock(late.mu);
  if (late.running == 0) return;
  spdlog::info("waiting for {} build(s) past their deadline to end before exiting", late.running);
  if (!late.cv.wait_for(lock, std::chrono::duration<double>(kExitWaitSeconds),
                        [&] { return late.running == 0; })) {
    spdlog::warn("exiting with {} build(s) past their deadline still running", late.running);
  }
}

// Everything a build may touch after Build returned: late builds keep it alive.
struct LocalBuilder::Shared {
  LocalBuilderOptions options;
  std::shared_ptr<WorkDir> work_dir;
  std::atomic<int64_t> next_file{0};
  ReferenceLibraries references;
  std::mutex recent_mu;
  std::deque<std::vector<std::string>> recent_batches;  // libraries of the latest Build calls
  // Builds past their deadline still running on detached threads.
  std::mutex late_mu;
  std::condition_variable late_cv;
  int late_builds = 0;

  void LateBuildEnded() {
    std::lock_guard<std::mutex> lock(late_mu);
    --late_builds;
    late_cv.notify_all();
  }

  std::string NewLibraryPath(const char* prefix, const target::Target& target) {
    return absl::StrCat(work_dir->path(), "/", prefix, next_file++, target.library_extension());
  }
};

namespace {

struct Slot {
  enum class State { kQueued, kRunning, kDone };
  State state = State::kQueued;
  bool in_task_phase = false;  // the worker may still read the caller's Task
  int worker = -1;
  Clock::time_point deadline;
  BuildResult result;
};

// One Build call: inputs, a result slot each, and the workers' queue position.
struct Batch {
  std::shared_ptr<LocalBuilder::Shared> shared;
  std::vector<MeasureInput> inputs;
  std::mutex mu;
  std::condition_variable cv;
  std::vector<Slot> slots;
  size_t next = 0;
  bool closed = false;  // Build returned: workers take nothing more
};

double SecondsSince(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

// What the candidate needs from its task, read while the task is certainly alive.
struct Prepared {
  absl::StatusOr<topi::ScheduledOp> op = absl::UnknownError("unset");
  std::optional<target::Target> target;  // set whenever there is a task
  std::string reference_key;
  ReferenceLibraries::Claim reference;
  absl::StatusOr<topi::ScheduledOp> reference_op = absl::UnknownError("unset");
};

Prepared PrepareFromTask(LocalBuilder::Shared& shared, const MeasureInput& input) {
  Prepared p;
  if (input.task == nullptr) {
    p.op = absl::InvalidArgumentError("measure input without a task");
    return p;
  }
  const Task& task = *input.task;
  p.op = task.Apply(input.config);
  p.target = task.target();
  if (!p.op.ok() || !shared.options.measure.check_correctness) return p;
  p.reference_key = absl::StrCat(task.key(), "|", task.target().str(), "|",
                                 task.tmpl().ReferenceKey(input.config));
  p.reference = shared.references.Find(p.reference_key);
  if (p.reference.promise != nullptr) p.reference_op = task.tmpl().Reference(input.config);
  return p;
}

void BuildReference(LocalBuilder::Shared& shared, const Prepared& p) {
  ReferenceLibrary library;
  if (!p.reference_op.ok()) {
    library.outcome = {ErrorKind::kBuildError,
                       absl::StrCat("reference schedule: ", p.reference_op.status().message())};
  } else {
    library.path = shared.NewLibraryPath("reference", *p.target);
    library.outcome = LowerAndExport(*p.reference_op, "reference", *p.target, library.path);
  }
  shared.references.Fulfill(p.reference_key, p.reference, std::move(library));
}

// Builds input `i`; calls `end_task_phase` once the caller's Task is no longer needed.
BuildResult BuildCandidate(Batch& batch, size_t i, const std::function<void()>& end_task_phase) {
  LocalBuilder::Shared& shared = *batch.shared;
  const Clock::time_point start = Clock::now();
  Prepared p = PrepareFromTask(shared, batch.inputs[i]);
  end_task_phase();
  BuildResult r;
  if (!p.op.ok()) {
    r.error_kind = ErrorKind::kInvalidConfig;
    r.error_message = std::string(p.op.status().message());
    r.build_seconds = SecondsSince(start);
    return r;
  }
  r.function_name = "candidate";
  const std::string path = shared.NewLibraryPath("candidate", *p.target);
  BuildOutcome o = LowerAndExport(*p.op, r.function_name, *p.target, path);
  r.error_kind = o.error_kind;
  r.error_message = std::move(o.error_message);
  if (o.error_kind == ErrorKind::kOk) r.library_path = path;
  r.build_seconds = SecondsSince(start);  // the shared reference is not this candidate's cost
  if (p.reference.promise != nullptr) BuildReference(shared, p);
  if (r.error_kind != ErrorKind::kOk || p.reference_key.empty()) return r;
  const ReferenceLibrary& reference = p.reference.future.get();
  if (reference.outcome.error_kind != ErrorKind::kOk) {
    r.error_kind = ErrorKind::kBuildError;
    r.error_message = absl::StrCat("reference: ", reference.outcome.error_message);
    return r;
  }
  r.reference_library_path = reference.path;
  r.reference_key = p.reference_key;
  return r;
}

Clock::duration HostWaitLimit() {
  return std::chrono::duration_cast<Clock::duration>(std::chrono::seconds(60));
}

// A build that cannot get its turn in time, or finds no lock file, builds anyway: a neighbour
// that holds the lock too long must not stop tuning.
std::optional<rm::HostTimingLock> TakeBuildTurn() {
  absl::StatusOr<rm::HostTimingLock> turn = rm::HostTimingLock::Acquire(
      rm::HostTimingLock::Mode::kBuilding, std::chrono::duration<double>(HostWaitLimit()).count());
  if (!turn.ok()) {
    spdlog::warn("build without the host timing lock: {}", std::string(turn.status().message()));
    return std::nullopt;
  }
  if (!turn->held() && !turn->off()) spdlog::warn("{}", turn->reason());
  return *std::move(turn);
}

void RunWorker(std::shared_ptr<Batch> batch, int worker) {
  // Clamped so that an "infinite" timeout cannot overflow the clock's duration.
  const auto timeout = std::chrono::duration_cast<Clock::duration>(
      std::chrono::duration<double>(std::min(batch->shared->options.measure.build_timeout_s, 1e7)));
  std::unique_lock<std::mutex> lock(batch->mu);
  while (!batch->closed && batch->next < batch->slots.size()) {
    const size_t i = batch->next++;
    Slot& slot = batch->slots[i];
    slot.state = Slot::State::kRunning;
    slot.worker = worker;
    slot.in_task_phase = true;
    // The build's deadline starts once the host lets builds run: while a kernel is being timed
    // on this host (runtime/measure/host_timing_lock.h) the compiler waits, for a bounded time.
    slot.deadline = Clock::now() + timeout + HostWaitLimit();
    lock.unlock();
    std::optional<rm::HostTimingLock> turn = TakeBuildTurn();
    lock.lock();
    if (slot.state == Slot::State::kRunning) {
      slot.deadline = Clock::now() + timeout;
      batch->cv.notify_all();  // Build waits until the earliest deadline: this one moved closer
    }
    lock.unlock();
    BuildResult result = BuildCandidate(*batch, i, [&] {
      std::lock_guard<std::mutex> guard(batch->mu);
      slot.in_task_phase = false;
      batch->cv.notify_all();
    });
    ProcessLateBuilds::RegisterExitWait();
    lock.lock();
    if (slot.state == Slot::State::kRunning) {
      slot.result = std::move(result);
      slot.state = Slot::State::kDone;
      batch->cv.notify_all();
      continue;
    }
    // Too late: Build recorded a timeout and gave this worker's place to a fresh one.
    lock.unlock();
    if (!result.library_path.empty()) unlink(result.library_path.c_str());
    batch->shared->LateBuildEnded();
    batch.reset();  // the last late build removes the work directory here
    LateBuildsOfThisProcess().Ended();
    return;
  }
}

BuildResult TimeoutResult(double timeout_s) {
  BuildResult r;
  r.error_kind = ErrorKind::kBuildTimeout;
  r.error_message = absl::StrCat("the build took longer than ", timeout_s, " s");
  r.build_seconds = timeout_s;
  return r;
}

}  // namespace

absl::StatusOr<std::unique_ptr<LocalBuilder>> LocalBuilder::Create(LocalBuilderOptions options) {
  if (options.parallelism <= 0) {
    options.parallelism = std::max(1, static_cast<int>(std::thread::hardware_concurrency()));
  }
  if (!(options.measure.build_timeout_s > 0)) {
    return absl::InvalidArgumentError("build_timeout_s must be positive");
  }
  // spdlog builds its registry on first use behind a function-local static whose guard lives in
  // the uninstrumented libspdlog: built here, before any build thread exists, it is ordered
  // before their logging by the threads' start (ThreadSanitizer otherwise reports the first
  // thread's construction against another's first log line).
  spdlog::default_logger_raw();
  auto shared = std::make_shared<Shared>();
  absl::StatusOr<std::shared_ptr<WorkDir>> dir =
      WorkDir::Create(options.work_dir_parent, options.keep_work_dir);
  if (!dir.ok()) return dir.status();
  shared->work_dir = *std::move(dir);
  shared->options = std::move(options);
  return std::unique_ptr<LocalBuilder>(new LocalBuilder(std::move(shared)));
}

LocalBuilder::~LocalBuilder() {
  // Late builds own what they touch, so this is not needed for safety; but a thread still inside
  // LLVM when the process exits may crash in LLVM's static destructors, so give them a moment.
  std::unique_lock<std::mutex> lock(shared_->late_mu);
  shared_->late_cv.wait_for(lock,
                            std::chrono::duration<double>(shared_->options.late_build_grace_s),
                            [&] { return shared_->late_builds == 0; });
}

bool LocalBuilder::WaitForLateBuilds(double timeout_s) {
  ProcessLateBuilds& late = LateBuildsOfThisProcess();
  std::unique_lock<std::mutex> lock(late.mu);
  return late.cv.wait_for(lock, std::chrono::duration<double>(std::min(timeout_s, 1e7)),
                          [&] { return late.running == 0; });
}

const std::string& LocalBuilder::work_dir() const { return shared_->work_dir->path(); }

std::vector<BuildResult> LocalBuilder::Build(const std::vector<MeasureInput>& inputs) {
  if (inputs.empty()) return {};
  Shared& shared = *shared_;
  {
    std::lock_guard<std::mutex> recent_lock(shared.recent_mu);
    while (static_cast<int>(shared.recent_batches.size()) >=
           std::max(1, shared.options.keep_batches)) {
      for (const std::string& path : shared.recent_batches.front()) unlink(path.c_str());
      shared.recent_batches.pop_front();
    }
  }
  auto batch = std::make_shared<Batch>();
  batch->shared = shared_;
  batch->inputs = inputs;
  batch->slots.resize(inputs.size());

  std::vector<std::thread> workers;
  std::vector<bool> late;
  std::unique_lock<std::mutex> lock(batch->mu);
  auto spawn = [&] {
    late.push_back(false);
    workers.emplace_back(RunWorker, batch, static_cast<int>(workers.size()));
  };
  const size_t width = std::min<size_t>(shared.options.parallelism, inputs.size());
  for (size_t k = 0; k < width; ++k) spawn();
  for (;;) {
    bool all_done = true;
    std::optional<Clock::time_point> earliest;
    const Clock::time_point now = Clock::now();
    for (Slot& slot : batch->slots) {
      if (slot.state == Slot::State::kRunning && slot.deadline <= now) {
        slot.state = Slot::State::kDone;
        slot.result = TimeoutResult(shared.options.measure.build_timeout_s);
        late[slot.worker] = true;
        {
          std::lock_guard<std::mutex> late_lock(shared.late_mu);
          ++shared.late_builds;
        }
        LateBuildsOfThisProcess().Started();
        if (batch->next < batch->slots.size()) spawn();
      }
      if (slot.state != Slot::State::kDone) all_done = false;
      if (slot.state == Slot::State::kRunning && (!earliest || slot.deadline < *earliest)) {
        earliest = slot.deadline;
      }
    }
    if (all_done) break;
    if (earliest) {
      batch->cv.wait_until(lock, *earliest);
    } else {
      batch->cv.wait(lock);
    }
  }
  batch->closed = true;
  batch->cv.wait(lock, [&] {
    return std::none_of(batch->slots.begin(), batch->slots.end(),
                        [](const Slot& s) { return s.in_task_phase; });
  });
  std::vector<BuildResult> results;
  std::vector<std::string> libraries;
  for (Slot& slot : batch->slots) {
    if (!slot.result.library_path.empty()) libraries.push_back(slot.result.library_path);
    results.push_back(std::move(slot.result));
  }
  lock.unlock();
  for (size_t k = 0; k < workers.size(); ++k) {
    if (late[k]) {
      workers[k].detach();  // still inside a build it cannot be pulled out of
    } else {
      workers[k].join();
    }
  }
  std::lock_guard<std::mutex> recent_lock(shared.recent_mu);
  shared.recent_batches.push_back(std::move(libraries));
  return results;
}

}  // namespace tunefarm::tuner
