#include "runtime/measure/isolated_measurer.h"

#include <chrono>
#include <optional>
#include <utility>

#include "absl/strings/str_cat.h"
#include "runtime/measure/host_timing_lock.h"
#include "runtime/measure/measure_child.h"
#include "runtime/time_evaluator.h"

namespace tunefarm::runtime::measure {
namespace {

MeasureOutcome Failed(ErrorKind kind, std::string message) {
  MeasureOutcome o;
  o.kind = kind;
  o.message = std::move(message);
  return o;
}

// The lock's wait is not the candidate's: it comes before the candidate's deadline starts, and is
// bounded so that a neighbour stuck with the lock slows the farm down but never stops it.
constexpr double kMaxTimingLockWaitS = 120;

std::optional<HostTimingLock> TakeTurn(HostTimingLock::Mode mode, const std::string& path,
                                       std::string* note) {
  absl::StatusOr<HostTimingLock> lock = HostTimingLock::Acquire(mode, kMaxTimingLockWaitS, path);
  if (!lock.ok()) {
    *note = absl::StrCat(lock.status().message(), "; timed without it");
    return std::nullopt;
  }
  if (!lock->held()) *note = lock->reason();
  return *std::move(lock);
}

}  // namespace

IsolatedMeasurer::IsolatedMeasurer(std::string program, std::vector<std::string> program_args,
                                   double reference_timeout_s, std::string timing_lock_path)
    : program_(std::move(program)),
      program_args_(std::move(program_args)),
      reference_timeout_s_(reference_timeout_s),
      timing_lock_path_(std::move(timing_lock_path)) {}

IsolatedMeasurer::~IsolatedMeasurer() = default;

void IsolatedMeasurer::Reset() { child_.reset(); }

bool IsolatedMeasurer::EnsureChild(std::string* error) {
  // A child that died while idle (killed from outside) must not cost a candidate its result.
  if (child_ != nullptr && child_->ExitedWhileIdle()) child_.reset();
  if (child_ != nullptr && child_->alive()) return true;
  child_.reset();
  absl::StatusOr<std::unique_ptr<MeasureChild>> started =
      MeasureChild::Start(program_, program_args_);
  if (!started.ok()) {
    *error = std::string(started.status().message());
    return false;
  }
  child_ = *std::move(started);
  ++children_started_;
  return true;
}

MeasureOutcome IsolatedMeasurer::Measure(MeasureRequest request, double timeout_s) {
  std::string error;
  if (!EnsureChild(&error)) return Failed(ErrorKind::kWorkerLost, error);
  request.id = next_id_++;

  // A new reference first runs alone, under its own deadline: a naive schedule may take far
  // longer than any candidate, and a candidate must not be timed out for it (nor given its time).
  const std::string reference_id =
      absl::StrCat(request.reference_library_path, "#", request.reference_key);
  if (request.options.check_correctness && !references_ready_.contains(reference_id)) {
    MeasureRequest prepare = request;
    prepare.id = next_id_++;
    prepare.library_path.clear();
    prepare.function_name.clear();
    std::string note;
    std::optional<HostTimingLock> turn =
        TakeTurn(HostTimingLock::Mode::kBuilding, timing_lock_path_, &note);
    MeasureChild::Reply ready = child_->Exchange(SerializeRequest(prepare), reference_timeout_s_);
    turn.reset();
    if (ready.kind != MeasureChild::Reply::Kind::kLine) {
      child_.reset();
      return Failed(
          ready.kind == MeasureChild::Reply::Kind::kTimeout ? ErrorKind::kRunTimeout
                                                            : ErrorKind::kRuntimeError,
          absl::StrCat("the reference ", request.reference_library_path, " did not finish (",
                       ready.text, "); limit ", reference_timeout_s_, " s"));
    }
    absl::StatusOr<MeasureResponse> prepared = ParseResponse(ready.text);
    if (!prepared.ok() || prepared->status != ErrorKind::kOk) {
      child_.reset();
      return Failed(ErrorKind::kRuntimeError,
                    prepared.ok() ? prepared->message : std::string(prepared.status().message()));
    }
    references_ready_.insert(reference_id);
  }

  std::string timing_note;
  std::optional<HostTimingLock> turn =
      TakeTurn(HostTimingLock::Mode::kTiming, timing_lock_path_, &timing_note);
  const bool timed_alone = turn.has_value() && (turn->held() || turn->off());
  const double window_start = runtime::SteadySeconds();
  MeasureChild::Reply reply = child_->Exchange(SerializeRequest(request), timeout_s);
  const double window_end = runtime::SteadySeconds();
  turn.reset();
  switch (reply.kind) {
    case MeasureChild::Reply::Kind::kLine:
      break;
    case MeasureChild::Reply::Kind::kDied:
      child_.reset();
      return Failed(ErrorKind::kRuntimeError,
                    absl::StrCat("the measure process ended (", reply.text, ") while running ",
                                 request.library_path));
    case MeasureChild::Reply::Kind::kTimeout:
      child_.reset();
      return Failed(ErrorKind::kRunTimeout, absl::StrCat("no result within ", timeout_s,
                                                         " s; the measure process was killed"));
    case MeasureChild::Reply::Kind::kError:
      child_.reset();
      return Failed(ErrorKind::kRuntimeError, absl::StrCat("measure channel: ", reply.text));
  }
  absl::StatusOr<MeasureResponse> response = ParseResponse(reply.text);
  if (!response.ok() || response->id != request.id) {
    child_.reset();  // out of step with us: start over with a fresh child
    return Failed(ErrorKind::kRuntimeError,
                  response.ok() ? absl::StrCat("measure response for request ", response->id,
                                               ", expected ", request.id)
                                : std::string(response.status().message()));
  }
  MeasureOutcome outcome;
  outcome.kind = response->status;
  // A candidate that computed garbage or failed may have written out of bounds without
  // crashing: the next one gets a clean process (a restart costs a few milliseconds).
  if (outcome.kind != ErrorKind::kOk) child_.reset();
  outcome.message = std::move(response->message);
  outcome.repeat_seconds = std::move(response->repeat_seconds);
  outcome.spread = response->spread;
  outcome.canary_ratio = response->canary_ratio;
  outcome.attempts = response->attempts;
  outcome.noisy = response->noisy || !timed_alone;
  outcome.window_start_s = window_start;
  outcome.window_end_s = window_end;
  outcome.timed_alone = timed_alone;
  outcome.timing_note = std::move(timing_note);
  return outcome;
}

}  // namespace tunefarm::runtime::measure
