// The proto's MeasureOptions (tunefarm.v1, common.proto) as the runtime's CandidateOptions,
// with the proto's documented meaning of 0 ("the default") applied.
#pragma once

#include "runtime/measure/measure_protocol.h"

namespace tunefarm::v1 {
class MeasureOptions;
}

namespace tunefarm::rpc_server {

// repeat 0: 3; rtol 0: 1e-3; atol 0: 1e-4; slow_cutoff_ratio 0: 100 and < 0: off; seed 0: 1;
// skip_correctness clears check_correctness. Other fields pass through.
runtime::measure::CandidateOptions CandidateOptionsFromProto(const v1::MeasureOptions& options);
// run_timeout_s, 10 when 0 (or negative).
double RunTimeoutFromProto(const v1::MeasureOptions& options);

}  // namespace tunefarm::rpc_server
