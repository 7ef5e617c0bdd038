#include "runtime/measure/measure_options_json.h"

#include <nlohmann/json.hpp>

#include "absl/strings/str_cat.h"
#include "runtime/measure/json_field_reader.h"

namespace tunefarm::runtime::measure {

nlohmann::json MeasureOptionsToJson(const MeasureOptions& o) {
  return nlohmann::json{{"number", o.number},
                        {"repeat", o.repeat},
                        {"min_repeat_ms", o.min_repeat_ms},
                        {"cooldown_ms", o.cooldown_ms},
                        {"cache_flush", CacheFlushName(o.cache_flush)},
                        {"warmup_ms", o.warmup_ms},
                        {"build_timeout_s", o.build_timeout_s},
                        {"run_timeout_s", o.run_timeout_s},
                        {"check_correctness", o.check_correctness},
                        {"rtol", o.rtol},
                        {"atol", o.atol},
                        {"slow_cutoff_ratio", o.slow_cutoff_ratio},
                        {"threads", o.threads},
                        {"seed", o.seed}};
}

absl::Status MeasureOptionsFromJson(const nlohmann::json& obj, std::string_view context,
                                    std::string_view prefix, MeasureOptions* o) {
  JsonFieldReader r(obj, context, prefix);
  r.Int("number", &o->number);
  r.Int("repeat", &o->repeat);
  r.Number("min_repeat_ms", &o->min_repeat_ms);
  r.Number("cooldown_ms", &o->cooldown_ms);
  r.Number("warmup_ms", &o->warmup_ms);
  r.Number("build_timeout_s", &o->build_timeout_s);
  r.Number("run_timeout_s", &o->run_timeout_s);
  r.Bool("check_correctness", &o->check_correctness);
  r.Number("rtol", &o->rtol);
  r.Number("atol", &o->atol);
  r.Number("slow_cutoff_ratio", &o->slow_cutoff_ratio);
  r.Int("threads", &o->threads);
  r.Uint("seed", &o->seed);
  // Specs stored before `cache_flush` had a boolean flush_cache, which flushed every cache.
  bool flush_cache = false;
  r.Bool("flush_cache", &flush_cache);
  if (flush_cache) o->cache_flush = CacheFlush::kAll;
  std::string flush;
  r.String("cache_flush", &flush);
  if (!r.status().ok()) return r.status();
  if (!flush.empty()) {
    std::optional<CacheFlush> parsed = ParseCacheFlush(flush);
    if (!parsed) {
      return absl::InvalidArgumentError(absl::StrCat(std::string(context), ": field '",
                                                     std::string(prefix), "cache_flush' is '",
                                                     flush, "', not none, all or weights"));
    }
    o->cache_flush = *parsed;
  }
  return r.status();
}

}  // namespace tunefarm::runtime::measure
