// The Lease's BuildSpec message (tunefarm.v1, worker.proto) as runtime::measure::BuildSpec and
// back: what a building worker compiles, checked once where it arrives.
#pragma once

#include "absl/status/statusor.h"
#include "runtime/measure/build_spec.h"
#include "runtime/measure/measure_options.h"

namespace tunefarm::v1 {
class BuildSpec;
}

namespace tunefarm::proto_mapping {

// The build timeout and whether the reference is built come from the lease's (checked)
// `options`. InvalidArgument names what is wrong: neither or both of a workload key and a
// script, no target, no config.
absl::StatusOr<runtime::measure::BuildSpec> BuildSpecFromProto(
    const v1::BuildSpec& proto, const runtime::measure::MeasureOptions& options);

// The inverse, less what travels in the lease's options.
v1::BuildSpec BuildSpecToProto(const runtime::measure::BuildSpec& spec);

}  // namespace tunefarm::proto_mapping
