#include "runtime/measure/candidate_measurer.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <functional>

#include "absl/strings/str_cat.h"
#include "runtime/core/thread_pool.h"
#include "runtime/measure/layer_cache_state.h"
#include "runtime/measure/measured_kernel.h"
#include "runtime/measure/output_check.h"
#include "runtime/time_evaluator.h"

namespace tunefarm::runtime::measure {
namespace {

MeasureResponse Failure(const MeasureRequest& request, ErrorKind status, std::string message) {
  MeasureResponse response;
  response.id = request.id;
  response.status = status;
  response.message = std::move(message);
  return response;
}

// How many calls make one repeat last about `target_ms`, from back-to-back batches of doubling
// size until one lasts a tenth of the target (about a fifth of one repeat's time in all). A
// single call is a poor estimate: right after the checked run it is often faster than calls in
// a loop, and the time evaluator's rerun of a short repeat at least doubles `number`, so
// calibrating there costs up to twice the repeats' time.
absl::StatusOr<int> CalibrateNumber(const std::function<absl::Status()>& call, double first_seconds,
                                    double target_ms) {
  if (first_seconds * 1000.0 >= target_ms) return 1;
  constexpr int kMaxNumber = 1 << 24;
  for (int n = 1;; n *= 2) {
    const double start = SteadySeconds();
    for (int i = 0; i < n; ++i) {
      if (absl::Status s = call(); !s.ok()) return s;
    }
    const double elapsed_ms = (SteadySeconds() - start) * 1000.0;
    if (elapsed_ms >= target_ms / 10 || n >= kMaxNumber) {
      const double wanted = std::ceil(n * target_ms / std::max(elapsed_ms, 1e-6));
      return static_cast<int>(std::clamp(wanted, 1.0, static_cast<double>(kMaxNumber)));
    }
  }
}

TimeEvaluatorOptions TimingOptions(const MeasureOptions& o, int calibrated_number,
                                   const KernelArguments& args) {
  TimeEvaluatorOptions t;
  t.number = o.number > 0 ? o.number : calibrated_number;
  // Calibrated: the evaluator only corrects a gross miss (a repeat under half the target).
  t.min_repeat_ms = o.number > 0 ? 0 : o.min_repeat_ms / 2;
  t.repeat = o.repeat;
  t.cooldown_ms = o.cooldown_ms;
  t.flush_cache = o.cache_flush == CacheFlush::kAll;
  if (o.cache_flush == CacheFlush::kWeights) {
    std::vector<const NDArray*> tensors;
    for (const NDArray& a : args.tensors()) tensors.push_back(&a);
    t.layer = LayerCacheStateOf(tensors);
  }
  t.warmup = 0;  // the checked first run already warmed code, data and the thread pool
  t.warmup_ms = o.warmup_ms;
  return t;
}

std::string CutShortMessage(double first_seconds, const MeasureOptions& options,
                            double best_seconds) {
  return absl::StrCat("cut short: the first run took ", first_seconds, " s, over ",
                      options.slow_cutoff_ratio, " x the best ", best_seconds, " s");
}

// A GPU kernel's time is its launches' time on the device (CUDA events), never the host's wall
// clock around a call, which would count the copies to and from the device.
MeasureResponse MeasureOnGpu(const MeasureRequest& request, const MeasuredKernel& fn,
                             const std::vector<PackedArg>& packed) {
  const MeasureOptions& options = request.options;
  MeasureResponse response;
  response.id = request.id;
  if (request.best_seconds > 0 && options.slow_cutoff_ratio > 0) {
    TimeEvaluatorOptions once;
    once.warmup = 0;
    absl::StatusOr<std::vector<double>> first = fn.TimeOnDevice(packed, once);
    if (!first.ok()) {
      return Failure(request, ErrorKind::kRuntimeError, std::string(first.status().message()));
    }
    if (first->front() > options.slow_cutoff_ratio * request.best_seconds) {
      response.repeat_seconds = *first;
      response.message = CutShortMessage(first->front(), options, request.best_seconds);
      return response;
    }
  }
  TimeEvaluatorOptions timing;
  timing.number = std::max(options.number, 1);
  timing.min_repeat_ms = options.number > 0 ? 0 : options.min_repeat_ms;
  timing.repeat = options.repeat;
  timing.cooldown_ms = options.cooldown_ms;
  timing.warmup = 1;  // the checked run's launches were not timed and the copies came between
  absl::StatusOr<std::vector<double>> samples = fn.TimeOnDevice(packed, timing);
  if (!samples.ok()) {
    return Failure(request, ErrorKind::kRuntimeError, std::string(samples.status().message()));
  }
  response.repeat_seconds = *std::move(samples);
  response.spread = Spread(response.repeat_seconds);
  return response;
}

}  // namespace

MeasureResponse CandidateMeasurer::Measure(const MeasureRequest& request) {
  const MeasureOptions& options = request.options;
  if (options.threads != threads_) {
    std::string error;
    if (!SetNumThreads(options.threads, &error)) {
      return Failure(request, ErrorKind::kRuntimeError, "threads: " + error);
    }
    threads_ = options.threads;
  }
  if (request.library_path.empty()) {
    // A preparation request: run the reference and cache its outputs, without a candidate, so a
    // runner can give a slow naive reference its own deadline.
    absl::StatusOr<const ReferenceRun*> got = references_.Get(request);
    if (!got.ok()) {
      return Failure(request, ErrorKind::kRuntimeError, std::string(got.status().message()));
    }
    MeasureResponse prepared;
    prepared.id = request.id;
    return prepared;
  }
  absl::StatusOr<MeasuredKernel> fn =
      MeasuredKernel::Load(request.library_path, request.function_name);
  if (!fn.ok()) {
    return Failure(request, ErrorKind::kRuntimeError, std::string(fn.status().message()));
  }

  const ReferenceRun* reference = nullptr;
  absl::StatusOr<KernelArguments> work = absl::UnknownError("unset");
  if (options.check_correctness) {
    absl::StatusOr<const ReferenceRun*> got = references_.Get(request);
    if (!got.ok()) {
      return Failure(request, ErrorKind::kRuntimeError, std::string(got.status().message()));
    }
    reference = *got;
    work = reference->inputs.Clone();
  } else {
    work = KernelArguments::Make(fn->signature(), request.bindings, options.seed);
  }
  if (!work.ok()) {
    return Failure(request, ErrorKind::kRuntimeError, std::string(work.status().message()));
  }
  const std::vector<PackedArg> packed = work->Pack();
  auto call = [&] { return fn->Call(packed); };

  const double start = SteadySeconds();
  if (absl::Status s = call(); !s.ok()) {
    return Failure(request, ErrorKind::kRuntimeError, std::string(s.message()));
  }
  const double first_seconds = SteadySeconds() - start;
  if (reference != nullptr) {
    std::string mismatch = FindMismatch(*work, reference->expected, options.rtol, options.atol);
    if (!mismatch.empty()) return Failure(request, ErrorKind::kWrongAnswer, mismatch);
  }

  if (fn->on_gpu()) return MeasureOnGpu(request, *fn, packed);

  MeasureResponse response;
  response.id = request.id;
  if (request.best_seconds > 0 && options.slow_cutoff_ratio > 0 &&
      first_seconds > options.slow_cutoff_ratio * request.best_seconds) {
    response.repeat_seconds = {first_seconds};
    response.message = CutShortMessage(first_seconds, options, request.best_seconds);
    return response;
  }
  absl::StatusOr<int> number = 1;
  if (options.number == 0 && options.min_repeat_ms > 0) {
    number = CalibrateNumber(call, first_seconds, options.min_repeat_ms);
  }
  if (!number.ok()) {
    return Failure(request, ErrorKind::kRuntimeError, std::string(number.status().message()));
  }
  const TimeEvaluatorOptions timing = TimingOptions(options, *number, *work);
  absl::StatusOr<StableTiming> kept =
      TimeStably([&] { return TimeFunction(call, timing); }, canary_, policy_);
  if (!kept.ok()) {
    return Failure(request, ErrorKind::kRuntimeError, std::string(kept.status().message()));
  }
  response.repeat_seconds = std::move(kept->repeat_seconds);
  response.spread = kept->spread;
  response.canary_ratio = kept->canary_ratio;
  response.attempts = kept->attempts;
  response.noisy = kept->noisy;
  return response;
}

}  // namespace tunefarm::runtime::measure
