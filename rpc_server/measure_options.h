// The proto's MeasureOptions (tunefarm.v1, common.proto) as the runtime's CandidateOptions,
// with the proto's documented meaning of 0 ("the default") applied. A worker trusts the wire no
// more than the tracker does: every number is checked, finite and within its documented range
// (runtime/measure_limits.h), before it is used.
#pragma once

#include "absl/status/statusor.h"
#include "runtime/measure/measure_protocol.h"

namespace tunefarm::v1 {
class MeasureOptions;
}

namespace tunefarm::rpc_server {

// repeat 0: 3; rtol 0: 1e-3; atol 0: 1e-4; slow_cutoff_ratio 0: 100 and < 0: off; seed 0: 1;
// skip_correctness clears check_correctness. Other fields pass through. InvalidArgument names
// the first field ("measure.cooldown_ms") that is not finite or outside its range: number
// 0..2^30, repeat 0..1000, min_repeat_ms and cooldown_ms 0..60000, rtol and atol >= 0, threads
// 0..1024.
absl::StatusOr<runtime::measure::CandidateOptions> CandidateOptionsFromProto(
    const v1::MeasureOptions& options);
// run_timeout_s, 10 when 0; InvalidArgument unless finite and in [0, 86400] s.
absl::StatusOr<double> RunTimeoutFromProto(const v1::MeasureOptions& options);

}  // namespace tunefarm::rpc_server
