// How every benchmark times a call: the runtime's time evaluator, 2 warm-up calls, then the
// median of 5 repeats of at least 100 ms each, so all tables compare like with like.
#pragma once

#include <functional>

#include "absl/status/status.h"
#include "absl/status/statusor.h"

namespace tunefarm::bench {

absl::StatusOr<double> MedianSeconds(const std::function<absl::Status()>& fn);

}  // namespace tunefarm::bench
