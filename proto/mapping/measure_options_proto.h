// The API's MeasureOptions message (tunefarm.v1, common.proto) as runtime::measure::MeasureOptions
// and back: the one place where the proto's "0 means the default" rules live, shared by the
// tracker (jobs, sessions, leases) and the worker (leases, TimeFunction).
#pragma once

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "runtime/measure/measure_options.h"

namespace tunefarm::v1 {
class MeasureOptions;
}

namespace tunefarm::proto_mapping {

// 0 means the default for repeat (3), min_repeat_ms (20), rtol (1e-3), atol (1e-4),
// slow_cutoff_ratio (100; < 0: off), build_timeout_s (20), run_timeout_s (10) and seed (1);
// skip_correctness clears check_correctness; flush_cache (older clients) is cache_flush ALL when
// cache_flush is NONE; number, cooldown_ms, warmup_ms and threads pass through. The
// result is checked (runtime::measure::ValidateMeasureOptions): InvalidArgument names the first
// field after `prefix` ("measure.cooldown_ms") that is not finite or outside its range.
absl::StatusOr<runtime::measure::MeasureOptions> MeasureOptionsFromProto(
    const v1::MeasureOptions& proto, absl::string_view prefix = "measure.");

// The inverse: MeasureOptionsFromProto(MeasureOptionsToProto(o)) measures as `o` does, except
// that an rtol or atol of 0 comes back as its default (the wire cannot say 0 for them).
v1::MeasureOptions MeasureOptionsToProto(const runtime::measure::MeasureOptions& options);

// The API's CacheFlush enum (as its int value) and back; an unknown value (from a newer client) is
// InvalidArgument naming `field`.
absl::StatusOr<runtime::measure::CacheFlush> CacheFlushFromProto(int flush,
                                                                 absl::string_view field);
int CacheFlushToProto(runtime::measure::CacheFlush flush);

}  // namespace tunefarm::proto_mapping
