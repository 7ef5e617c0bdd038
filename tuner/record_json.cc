#include "tuner/record_json.h"

#include <cmath>
#include <nlohmann/json.hpp>

#include "absl/strings/str_cat.h"
#include "compiler/target/target.h"
#include "runtime/core/json_nesting.h"
#include "tuner/workload.h"

namespace tunefarm::tuner {
namespace {

using Json = nlohmann::json;
using OrderedJson = nlohmann::ordered_json;

constexpr const char* kFields[] = {
    "workload",         "target",        "device_key",    "config",      "repeat_seconds",
    "error_kind",       "error_message", "build_seconds", "measured_by", "timestamp_ms",
    "tunefarm_version", "job_id",        "built_by",      "cold_cache",  "cache_flush",
    "spread",           "canary_ratio",  "noisy",         "emulated",
};

absl::Status FieldError(std::string_view field, std::string_view expected) {
  return absl::InvalidArgumentError(
      absl::StrCat("field '", std::string(field), "' is missing or not ", std::string(expected)));
}

absl::Status GetString(const Json& obj, const char* field, std::string* out) {
  auto it = obj.find(field);
  if (it == obj.end() || !it->is_string()) return FieldError(field, "a string");
  *out = it->get<std::string>();
  return absl::OkStatus();
}

absl::Status GetNumber(const Json& obj, const char* field, double* out) {
  auto it = obj.find(field);
  // 1e400 parses as infinity: no time is.
  if (it == obj.end() || !it->is_number() || !std::isfinite(it->get<double>())) {
    return FieldError(field, "a finite number");
  }
  *out = it->get<double>();
  return absl::OkStatus();
}

absl::Status CheckKnownFields(const Json& obj) {
  for (const auto& [key, value] : obj.items()) {
    bool known = false;
    for (const char* field : kFields) known = known || key == field;
    if (!known) return absl::InvalidArgumentError(absl::StrCat("unknown field '", key, "'"));
  }
  return absl::OkStatus();
}

// A knob's value: a string, an integer, or a list of integers (compiler/space/knob.h).
bool IsKnobValue(const Json& v) {
  if (v.is_string() || v.is_number_integer()) return true;
  if (!v.is_array()) return false;
  for (const Json& e : v) {
    if (!e.is_number_integer()) return false;
  }
  return true;
}

// Checked before printing: a config is flat, so nothing nested reaches dump's recursion.
absl::StatusOr<std::string> CanonicalKnobsJson(const Json& config) {
  for (const auto& [knob, value] : config.items()) {
    if (!IsKnobValue(value)) {
      return absl::InvalidArgumentError(
          absl::StrCat("config knob '", knob.substr(0, 80),
                       "' is not a string, an integer or a list of integers"));
    }
  }
  return config.dump(-1, ' ', false, Json::error_handler_t::replace);
}

absl::Status FillFromJson(const Json& obj, Record* r) {
  if (absl::Status s = CheckKnownFields(obj); !s.ok()) return s;
  std::string kind;
  for (auto [field, out] : {std::pair{"workload", &r->workload_key},
                            {"target", &r->target},
                            {"device_key", &r->device_key},
                            {"error_kind", &kind},
                            {"error_message", &r->error_message},
                            {"measured_by", &r->measured_by},
                            {"tunefarm_version", &r->tunefarm_version},
                            {"job_id", &r->job_id}}) {
    if (absl::Status s = GetString(obj, field, out); !s.ok()) return s;
  }
  // Keys canonical, as every other way in stores them: "matmul:64,64,64" and its float32 form
  // are one workload, and `best` finds what was imported.
  absl::StatusOr<Workload> workload = ParseWorkloadKey(r->workload_key);
  if (!workload.ok()) {
    return absl::InvalidArgumentError(
        absl::StrCat("field 'workload': ", workload.status().message()));
  }
  r->workload_key = workload->Key();
  if (absl::StatusOr<target::Target> t = target::ParseTarget(r->target); !t.ok()) {
    return absl::InvalidArgumentError(absl::StrCat("field 'target': ", t.status().message()));
  }
  absl::StatusOr<ErrorKind> parsed = ParseErrorKind(kind);
  if (!parsed.ok()) return parsed.status();
  r->error_kind = *parsed;
  if (absl::Status s = GetNumber(obj, "build_seconds", &r->build_seconds); !s.ok()) return s;
  auto ts = obj.find("timestamp_ms");
  if (ts == obj.end() || !ts->is_number_integer()) return FieldError("timestamp_ms", "an integer");
  r->timestamp_ms = ts->get<int64_t>();
  // Optional: exports from before the builder was recorded lack it.
  if (obj.contains("built_by")) {
    if (absl::Status s = GetString(obj, "built_by", &r->built_by); !s.ok()) return s;
  }
  // Optional: exports from before cold-cache timing hold only warm-cache records, and those of
  // the version before cache_flush say cold_cache true for records timed with every cache flushed.
  if (auto cold = obj.find("cold_cache"); cold != obj.end()) {
    if (!cold->is_boolean()) return FieldError("cold_cache", "a boolean");
    if (cold->get<bool>()) r->cache_flush = CacheFlush::kAll;
  }
  if (auto flush = obj.find("cache_flush"); flush != obj.end()) {
    std::optional<CacheFlush> parsed =
        flush->is_string() ? runtime::measure::ParseCacheFlush(flush->get<std::string>())
                           : std::nullopt;
    if (!parsed) {
      return absl::InvalidArgumentError(R"(field 'cache_flush' is not "none", "all" or "weights")");
    }
    r->cache_flush = *parsed;
  }
  // Optional (older exports lack them); `spread` is derived from the repeats and not read.
  if (auto canary = obj.find("canary_ratio"); canary != obj.end()) {
    if (!canary->is_number() || !std::isfinite(canary->get<double>()) ||
        canary->get<double>() <= 0) {
      return FieldError("canary_ratio", "a positive finite number");
    }
    r->canary_ratio = canary->get<double>();
  }
  if (auto noisy = obj.find("noisy"); noisy != obj.end()) {
    if (!noisy->is_boolean()) return FieldError("noisy", "a boolean");
    r->noisy = noisy->get<bool>();
  }
  if (auto emulated = obj.find("emulated"); emulated != obj.end()) {
    if (!emulated->is_boolean()) return FieldError("emulated", "a boolean");
    r->emulated = emulated->get<bool>();
  }
  auto config = obj.find("config");
  if (config == obj.end() || !config->is_object()) return FieldError("config", "an object");
  absl::StatusOr<std::string> canonical = CanonicalKnobsJson(*config);
  if (!canonical.ok()) return canonical.status();
  r->config_json = *std::move(canonical);
  auto repeats = obj.find("repeat_seconds");
  if (repeats == obj.end() || !repeats->is_array()) {
    return FieldError("repeat_seconds", "an array");
  }
  for (const Json& t : *repeats) {
    // No time is negative or zero: such a record would win every "best" query.
    if (!t.is_number() || !std::isfinite(t.get<double>()) || t.get<double>() <= 0) {
      return FieldError("repeat_seconds", "an array of positive finite numbers");
    }
    r->repeat_seconds.push_back(t.get<double>());
  }
  return absl::OkStatus();
}

}  // namespace

std::string RecordToJsonLine(const Record& record) {
  OrderedJson out;
  out["workload"] = record.workload_key;
  out["target"] = record.target;
  out["device_key"] = record.device_key;
  // Stored configs are canonical (checked on insert); a bad one still exports, as a string.
  Json config = runtime::JsonNestingWithin(record.config_json)
                    ? Json::parse(record.config_json, nullptr, /*allow_exceptions=*/false)
                    : Json(Json::value_t::discarded);
  out["config"] = config.is_discarded() ? Json(record.config_json) : config;
  out["repeat_seconds"] = record.repeat_seconds;
  out["error_kind"] = ErrorKindName(record.error_kind);
  out["error_message"] = record.error_message;
  out["build_seconds"] = record.build_seconds;
  out["measured_by"] = record.measured_by;
  out["timestamp_ms"] = record.timestamp_ms;
  out["tunefarm_version"] = record.tunefarm_version;
  out["job_id"] = record.job_id;
  out["built_by"] = record.built_by;
  out["cache_flush"] = runtime::measure::CacheFlushName(record.cache_flush);
  out["spread"] = SpreadOf(record.repeat_seconds);
  out["canary_ratio"] = record.canary_ratio;
  out["noisy"] = record.noisy;
  out["emulated"] = record.emulated;
  // Replace invalid UTF-8 (say, in a compiler's error message) instead of throwing.
  return out.dump(-1, ' ', false, Json::error_handler_t::replace);
}

absl::StatusOr<Record> RecordFromJsonLine(std::string_view line) {
  if (!runtime::JsonNestingWithin(line)) {
    return absl::InvalidArgumentError(
        absl::StrCat("JSON nested deeper than ", runtime::kMaxJsonNesting, " levels"));
  }
  Json obj = Json::parse(line, nullptr, /*allow_exceptions=*/false);
  if (obj.is_discarded()) return absl::InvalidArgumentError("not valid JSON");
  if (!obj.is_object()) return absl::InvalidArgumentError("not a JSON object");
  Record record;
  if (absl::Status s = FillFromJson(obj, &record); !s.ok()) return s;
  return record;
}

absl::StatusOr<std::string> CanonicalConfigJson(std::string_view config_json) {
  Json config = runtime::JsonNestingWithin(config_json)
                    ? Json::parse(config_json, nullptr, /*allow_exceptions=*/false)
                    : Json(Json::value_t::discarded);
  if (config.is_discarded() || !config.is_object()) {
    return absl::InvalidArgumentError(absl::StrCat("config is not a JSON object: '",
                                                   std::string(config_json.substr(0, 80)), "'"));
  }
  return CanonicalKnobsJson(config);
}

}  // namespace tunefarm::tuner
