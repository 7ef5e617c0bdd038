#include "proto/mapping/measure_options_proto.h"

#include <cmath>

#include "absl/strings/str_cat.h"
#include "proto/mapping/or_default.h"
#include "proto/tunefarm/v1/common.pb.h"

namespace tunefarm::proto_mapping {

absl::StatusOr<runtime::measure::MeasureOptions> MeasureOptionsFromProto(
    const v1::MeasureOptions& proto, absl::string_view prefix) {
  const runtime::measure::MeasureOptions defaults;
  runtime::measure::MeasureOptions o;
  o.number = proto.number();
  o.repeat = OrDefault(proto.repeat(), defaults.repeat);
  o.min_repeat_ms = OrDefault(proto.min_repeat_ms(), defaults.min_repeat_ms);
  o.cooldown_ms = proto.cooldown_ms();
  o.flush_cache = proto.flush_cache();
  o.check_correctness = !proto.skip_correctness();
  o.rtol = OrDefault(proto.rtol(), defaults.rtol);
  o.atol = OrDefault(proto.atol(), defaults.atol);
  if (!std::isfinite(proto.slow_cutoff_ratio())) {
    return absl::InvalidArgumentError(absl::StrCat(
        prefix, "slow_cutoff_ratio must be a finite number (0: the default, 100; < 0: off), got ",
        proto.slow_cutoff_ratio()));
  }
  o.slow_cutoff_ratio = proto.slow_cutoff_ratio() < 0
                            ? 0
                            : OrDefault(proto.slow_cutoff_ratio(), defaults.slow_cutoff_ratio);
  o.threads = proto.threads();
  o.build_timeout_s = OrDefault(proto.build_timeout_s(), defaults.build_timeout_s);
  o.run_timeout_s = OrDefault(proto.run_timeout_s(), defaults.run_timeout_s);
  o.seed = OrDefault<uint64_t>(proto.seed(), defaults.seed);
  if (absl::Status s = runtime::measure::ValidateMeasureOptions(o, prefix); !s.ok()) return s;
  return o;
}

v1::MeasureOptions MeasureOptionsToProto(const runtime::measure::MeasureOptions& o) {
  v1::MeasureOptions p;
  // On the wire min_repeat_ms 0 means "the default, 20"; calibrating to a 0 ms repeat is one run
  // per repeat, which travels as number = 1.
  p.set_number(o.number == 0 && o.min_repeat_ms == 0 ? 1 : o.number);
  p.set_repeat(o.repeat);
  p.set_min_repeat_ms(o.min_repeat_ms);
  p.set_cooldown_ms(o.cooldown_ms);
  p.set_flush_cache(o.flush_cache);
  p.set_skip_correctness(!o.check_correctness);
  p.set_rtol(o.rtol);
  p.set_atol(o.atol);
  // 0 means "the default (100)" on the wire, so "off" travels as a negative ratio.
  p.set_slow_cutoff_ratio(o.slow_cutoff_ratio == 0 ? -1 : o.slow_cutoff_ratio);
  p.set_threads(o.threads);
  p.set_build_timeout_s(o.build_timeout_s);
  p.set_run_timeout_s(o.run_timeout_s);
  p.set_seed(o.seed);
  return p;
}

}  // namespace tunefarm::proto_mapping
