#include "rpc_server/measure_options.h"

#include "proto/tunefarm/v1/common.pb.h"

namespace tunefarm::rpc_server {

runtime::measure::CandidateOptions CandidateOptionsFromProto(const v1::MeasureOptions& options) {
  runtime::measure::CandidateOptions out;
  out.number = options.number() > 0 ? options.number() : 0;
  out.repeat = options.repeat() > 0 ? options.repeat() : 3;
  out.min_repeat_ms = options.min_repeat_ms() > 0 ? options.min_repeat_ms() : 0;
  out.cooldown_ms = options.cooldown_ms() > 0 ? options.cooldown_ms() : 0;
  out.flush_cache = options.flush_cache();
  out.check_correctness = !options.skip_correctness();
  out.rtol = options.rtol() > 0 ? options.rtol() : 1e-3;
  out.atol = options.atol() > 0 ? options.atol() : 1e-4;
  if (options.slow_cutoff_ratio() == 0) {
    out.slow_cutoff_ratio = 100;
  } else {
    out.slow_cutoff_ratio = options.slow_cutoff_ratio() < 0 ? 0 : options.slow_cutoff_ratio();
  }
  out.threads = options.threads() > 0 ? options.threads() : 0;
  out.seed = options.seed() != 0 ? options.seed() : 1;
  return out;
}

double RunTimeoutFromProto(const v1::MeasureOptions& options) {
  return options.run_timeout_s() > 0 ? options.run_timeout_s() : 10;
}

}  // namespace tunefarm::rpc_server
