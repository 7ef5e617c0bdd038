#include "runtime/measure/measure_options_json.h"

#include <nlohmann/json.hpp>

#include "runtime/measure/json_field_reader.h"

namespace tunefarm::runtime::measure {

nlohmann::json MeasureOptionsToJson(const MeasureOptions& o) {
  return nlohmann::json{{"number", o.number},
                        {"repeat", o.repeat},
                        {"min_repeat_ms", o.min_repeat_ms},
                        {"cooldown_ms", o.cooldown_ms},
                        {"flush_cache", o.flush_cache},
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
  r.Bool("flush_cache", &o->flush_cache);
  r.Number("build_timeout_s", &o->build_timeout_s);
  r.Number("run_timeout_s", &o->run_timeout_s);
  r.Bool("check_correctness", &o->check_correctness);
  r.Number("rtol", &o->rtol);
  r.Number("atol", &o->atol);
  r.Number("slow_cutoff_ratio", &o->slow_cutoff_ratio);
  r.Int("threads", &o->threads);
  r.Uint("seed", &o->seed);
  return r.status();
}

}  // namespace tunefarm::runtime::measure
