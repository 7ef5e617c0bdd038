#include "proto/mapping/measure_options_proto.h"

#include <cmath>

#include "absl/strings/str_cat.h"
#include "proto/mapping/or_default.h"
#include "proto/tunefarm/v1/common.pb.h"

namespace tunefarm::proto_mapping {

absl::StatusOr<runtime::measure::CacheFlush> CacheFlushFromProto(int flush,
                                                                 absl::string_view field) {
  switch (flush) {
    case v1::CACHE_FLUSH_NONE:
      return runtime::measure::CacheFlush::kNone;
    case v1::CACHE_FLUSH_ALL:
      return runtime::measure::CacheFlush::kAll;
    case v1::CACHE_FLUSH_WEIGHTS:
      return runtime::measure::CacheFlush::kWeights;
    default:
      return absl::InvalidArgumentError(
          absl::StrCat(field, " is ", flush, ", not NONE (0), ALL (1) or WEIGHTS (2)"));
  }
}

int CacheFlushToProto(runtime::measure::CacheFlush flush) {
  switch (flush) {
    case runtime::measure::CacheFlush::kAll:
      return v1::CACHE_FLUSH_ALL;
    case runtime::measure::CacheFlush::kWeights:
      return v1::CACHE_FLUSH_WEIGHTS;
    case runtime::measure::CacheFlush::kNone:
      break;
  }
  return v1::CACHE_FLUSH_NONE;
}

absl::StatusOr<runtime::measure::MeasureOptions> MeasureOptionsFromProto(
    const v1::MeasureOptions& proto, absl::string_view prefix) {
  const runtime::measure::MeasureOptions defaults;
  runtime::measure::MeasureOptions o;
  o.number = proto.number();
  o.repeat = OrDefault(proto.repeat(), defaults.repeat);
  o.min_repeat_ms = OrDefault(proto.min_repeat_ms(), defaults.min_repeat_ms);
  o.cooldown_ms = proto.cooldown_ms();
  absl::StatusOr<runtime::measure::CacheFlush> flush =
      CacheFlushFromProto(proto.cache_flush(), absl::StrCat(prefix, "cache_flush"));
  if (!flush.ok()) return flush.status();
  o.cache_flush = *flush;
  if (o.cache_flush == runtime::measure::CacheFlush::kNone && proto.flush_cache()) {
    o.cache_flush = runtime::measure::CacheFlush::kAll;
  }
  o.warmup_ms = proto.warmup_ms();
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
  p.set_cache_flush(static_cast<v1::CacheFlush>(CacheFlushToProto(o.cache_flush)));
  p.set_flush_cache(o.cache_flush == runtime::measure::CacheFlush::kAll);  // for older workers
  p.set_warmup_ms(o.warmup_ms);
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
