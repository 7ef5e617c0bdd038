#include "rpc_server/lease_executor.h"

#include <csignal>
#include <fstream>
#include <string>
#include <sys/syscall.h>
#include <unistd.h>
#include <utility>

#include "absl/strings/str_cat.h"
#include "runtime/measure/library_file.h"
#include "runtime/measure/measure_options.h"

namespace tunefarm::rpc_server {

LeaseExecutor::LeaseExecutor(std::string program, std::vector<std::string> program_args,
                             std::shared_ptr<runtime::measure::CandidateBuilder> builder,
                             DoneCallback done)
    : measurer_(std::move(program), std::move(program_args)),
      builder_(std::move(builder)),
      done_(std::move(done)) {
  thread_ = std::thread([this] { Loop(); });
}

LeaseExecutor::~LeaseExecutor() {
  {
    std::lock_guard<std::mutex> lock(mu_);
    shutdown_ = true;
    queue_.clear();
    running_cancelled_ = true;
    if (running_ != 0) KillRunningChildLocked();
  }
  cv_.notify_all();
  thread_.join();
}

void LeaseExecutor::Submit(LeaseTask task) {
  {
    std::lock_guard<std::mutex> lock(mu_);
    queue_.push_back(std::move(task));
  }
  cv_.notify_all();
}

int64_t LeaseExecutor::Running() const {
  std::lock_guard<std::mutex> lock(mu_);
  return running_;
}

bool LeaseExecutor::Cancel(int64_t lease_id) {
  std::lock_guard<std::mutex> lock(mu_);
  for (auto it = queue_.begin(); it != queue_.end(); ++it) {
    if (it->lease_id == lease_id) {
      queue_.erase(it);
      return true;
    }
  }
  if (running_ == lease_id && !running_cancelled_) {
    running_cancelled_ = true;
    KillRunningChildLocked();
  }
  return false;
}

// IsolatedMeasurer cannot be reset from another thread, and it does not expose its child. But
// the child is spawned by the executor thread, so it is exactly that thread's child process
// (/proc/self/task/<tid>/children). Killing it makes the measurement in progress end at once
// (as a crash would); the executor thread itself reaps it. A pid cannot be reused before that
// reaping, so the kill cannot reach an unrelated process unless the child exits and is reaped
// in the instant between reading the list and the kill, and its pid is then reissued at once.
void LeaseExecutor::KillRunningChildLocked() {
  if (executor_tid_ == 0) return;
  std::ifstream children("/proc/self/task/" + std::to_string(executor_tid_) + "/children");
  pid_t pid = 0;
  while (children >> pid) {
    if (pid <= 0) continue;
    kill(-pid, SIGKILL);  // the child leads its own process group: anything it started goes too
    kill(pid, SIGKILL);
  }
}

std::vector<int64_t> LeaseExecutor::DropQueued() {
  std::lock_guard<std::mutex> lock(mu_);
  std::vector<int64_t> ids;
  for (const LeaseTask& task : queue_) ids.push_back(task.lease_id);
  queue_.clear();
  return ids;
}

bool LeaseExecutor::Idle() const {
  std::lock_guard<std::mutex> lock(mu_);
  return queue_.empty() && running_ == 0;
}

int LeaseExecutor::children_started() const {
  std::lock_guard<std::mutex> lock(mu_);
  return children_started_;
}

bool LeaseExecutor::BuildFirst(LeaseTask& task, LeaseOutcome& result) {
  namespace rm = runtime::measure;
  if (builder_ == nullptr) {
    result.outcome.kind = rm::ErrorKind::kBuildError;
    result.outcome.message = "this worker has no compiler";
    result.cannot_build = true;
    return false;
  }
  rm::BuiltCandidate built = builder_->Build(*task.build);
  result.build_seconds = built.build_seconds;
  result.cannot_build = built.cannot_build;
  if (built.error_kind != rm::ErrorKind::kOk || built.cannot_build) {
    result.outcome.kind = built.error_kind;
    result.outcome.message = std::move(built.error_message);
    return false;
  }
  {
    // Cancelled while it built: nothing to measure (the callback says cancelled).
    std::lock_guard<std::mutex> lock(mu_);
    if (running_cancelled_) return false;
  }
  rm::MeasureRequest& request = task.request;
  request.library_path = std::move(built.library_path);
  request.function_name = std::move(built.function_name);
  if (task.build->with_reference && !built.reference_library_path.empty()) {
    request.reference_library_path = std::move(built.reference_library_path);
    request.reference_key = std::move(built.reference_key);
  } else {
    request.options.check_correctness = false;  // nothing to check against
  }
  return true;
}

void LeaseExecutor::ReadBuilt(const LeaseTask& task, LeaseOutcome& result) {
  namespace rm = runtime::measure;
  const rm::MeasureRequest& request = task.request;
  BuiltLibraryBytes built;
  absl::StatusOr<std::string> library =
      rm::ReadLibraryFile(request.library_path, kMaxBuiltLibraryBytes);
  if (!library.ok()) {
    result.outcome.kind = rm::ErrorKind::kBuildError;
    result.outcome.message = std::string(library.status().message());
    return;
  }
  built.library = *std::move(library);
  built.function_name = request.function_name;
  if (!request.reference_library_path.empty()) {
    absl::StatusOr<std::string> reference =
        rm::ReadLibraryFile(request.reference_library_path, kMaxBuiltLibraryBytes);
    if (!reference.ok()) {
      result.outcome.kind = rm::ErrorKind::kBuildError;
      result.outcome.message = absl::StrCat("reference: ", reference.status().message());
      return;
    }
    built.reference = *std::move(reference);
    built.reference_key = request.reference_key;
  }
  result.outcome.kind = rm::ErrorKind::kOk;
  result.built = std::move(built);
}

void LeaseExecutor::Loop() {
  {
    std::lock_guard<std::mutex> lock(mu_);
    executor_tid_ = static_cast<int>(syscall(SYS_gettid));
  }
  for (;;) {
    LeaseTask task;
    {
      std::unique_lock<std::mutex> lock(mu_);
      cv_.wait(lock, [&] { return shutdown_ || !queue_.empty(); });
      if (shutdown_) return;
      task = std::move(queue_.front());
      queue_.pop_front();
      running_ = task.lease_id;
      running_cancelled_ = false;
    }
    LeaseOutcome result;
    result.lease_id = task.lease_id;
    if (task.build && task.build_only) {
      if (BuildFirst(task, result)) ReadBuilt(task, result);
    } else if (!task.build || BuildFirst(task, result)) {
      const double timeout_s = runtime::measure::CandidateDeadlineSeconds(task.request.options);
      result.outcome = measurer_.Measure(std::move(task.request), timeout_s);
    }
    bool shutting_down = false;
    {
      std::lock_guard<std::mutex> lock(mu_);
      result.cancelled = running_cancelled_;
      running_ = 0;
      children_started_ = measurer_.children_started();
      shutting_down = shutdown_;
    }
    if (!shutting_down) done_(std::move(result));
  }
}

}  // namespace tunefarm::rpc_server
