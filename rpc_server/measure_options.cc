#include "rpc_server/measure_options.h"

#include <cmath>

#include "absl/strings/str_cat.h"
#include "proto/tunefarm/v1/common.pb.h"
#include "runtime/core/thread_pool.h"
#include "runtime/measure_limits.h"

namespace tunefarm::rpc_server {
namespace {

absl::Status Check(const char* field, double value, const runtime::NumberRange& range) {
  return runtime::CheckInRange(absl::StrCat("measure.", field), value, range);
}

}  // namespace

absl::StatusOr<runtime::measure::CandidateOptions> CandidateOptionsFromProto(
    const v1::MeasureOptions& options) {
  for (const absl::Status& s : {
           Check("number", options.number(), {0, runtime::kMaxCallsPerRepeat}),
           Check("repeat", options.repeat(), {0, runtime::kMaxRepeat}),
           Check("min_repeat_ms", options.min_repeat_ms(), runtime::kPauseRange),
           Check("cooldown_ms", options.cooldown_ms(), runtime::kPauseRange),
           Check("rtol", options.rtol(), runtime::kNonNegativeRange),
           Check("atol", options.atol(), runtime::kNonNegativeRange),
           Check("threads", options.threads(), {0, runtime::kMaxThreads}),
       }) {
    if (!s.ok()) return s;
  }
  if (!std::isfinite(options.slow_cutoff_ratio())) {
    return absl::InvalidArgumentError(
        absl::StrCat("measure.slow_cutoff_ratio must be a finite number (0: the default, 100; < 0: "
                     "off), got ",
                     options.slow_cutoff_ratio()));
  }
  runtime::measure::CandidateOptions out;
  out.number = options.number();
  out.repeat = options.repeat() > 0 ? options.repeat() : 3;
  out.min_repeat_ms = options.min_repeat_ms();
  out.cooldown_ms = options.cooldown_ms();
  out.flush_cache = options.flush_cache();
  out.check_correctness = !options.skip_correctness();
  out.rtol = options.rtol() > 0 ? options.rtol() : 1e-3;
  out.atol = options.atol() > 0 ? options.atol() : 1e-4;
  if (options.slow_cutoff_ratio() == 0) {
    out.slow_cutoff_ratio = 100;
  } else {
    out.slow_cutoff_ratio = options.slow_cutoff_ratio() < 0 ? 0 : options.slow_cutoff_ratio();
  }
  out.threads = options.threads();
  out.seed = options.seed() != 0 ? options.seed() : 1;
  return out;
}

absl::StatusOr<double> RunTimeoutFromProto(const v1::MeasureOptions& options) {
  if (absl::Status s = Check("run_timeout_s", options.run_timeout_s(), runtime::kWaitRange);
      !s.ok()) {
    return s;
  }
  return options.run_timeout_s() > 0 ? options.run_timeout_s() : 10;
}

}  // namespace tunefarm::rpc_server
