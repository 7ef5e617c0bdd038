// A record's lowered IR for its page: the workload's task, the record's config applied by the
// template, lowered and printed as `tunefarm lower` prints a function.
#pragma once

#include <string>

#include "absl/status/statusor.h"
#include "tuner/record.h"

namespace tunefarm::tracker::http {

// Errors: a workload key that names no template (e.g. a TE script's), a config that no longer
// fits the template's space, a lowering error.
absl::StatusOr<std::string> LoweredIr(const tuner::Record& record);

}  // namespace tunefarm::tracker::http
