#include "runtime/measure/measure_protocol.h"

#include <cmath>
#include <limits>
#include <nlohmann/json.hpp>

#include "absl/strings/str_cat.h"
#include "runtime/core/json_nesting.h"

namespace tunefarm::runtime::measure {
namespace {

using Json = nlohmann::json;

absl::Status FieldError(std::string_view message, std::string_view field, std::string_view want) {
  return absl::InvalidArgumentError(absl::StrCat("measure ", std::string(message), ": field '",
                                                 std::string(field), "' is not ",
                                                 std::string(want)));
}

// Reads optional typed fields of one JSON object, remembering the first type error. Parsing
// never throws: every value's type is checked before it is read.
class FieldReader {
 public:
  FieldReader(const Json& obj, std::string_view message) : obj_(obj), message_(message) {}

  void String(const char* field, std::string* out) {
    if (const Json* v = Find(field, "a string", &Json::is_string)) *out = v->get<std::string>();
  }
  void Int(const char* field, int64_t* out) {
    if (const Json* v = Find(field, "an integer", &Json::is_number_integer))
      *out = v->get<int64_t>();
  }
  void Int(const char* field, int* out) {
    int64_t value = *out;
    Int(field, &value);
    if (value < std::numeric_limits<int>::min() || value > std::numeric_limits<int>::max()) {
      return Fail(field, "an integer within 32 bits");
    }
    *out = static_cast<int>(value);
  }
  void Uint(const char* field, uint64_t* out) {
    if (const Json* v = Find(field, "an unsigned integer", &Json::is_number_unsigned)) {
      *out = v->get<uint64_t>();
    }
  }
  // Finite only: the parser reads 1e400 as infinity, which no option or time may be.
  void Number(const char* field, double* out) {
    const Json* v = Find(field, "a finite number", &Json::is_number);
    if (v == nullptr) return;
    if (!std::isfinite(v->get<double>())) return Fail(field, "a finite number");
    *out = v->get<double>();
  }
  void Bool(const char* field, bool* out) {
    if (const Json* v = Find(field, "a boolean", &Json::is_boolean)) *out = v->get<bool>();
  }
  void Numbers(const char* field, std::vector<double>* out) {
    const Json* v = Find(field, "an array of numbers", &Json::is_array);
    if (v == nullptr) return;
    for (const Json& x : *v) {
      if (!x.is_number() || !std::isfinite(x.get<double>())) {
        return Fail(field, "an array of finite numbers");
      }
      out->push_back(x.get<double>());
    }
  }
  void IntMap(const char* field, std::map<std::string, int64_t>* out) {
    const Json* v = Find(field, "an object of integers", &Json::is_object);
    if (v == nullptr) return;
    for (const auto& [key, x] : v->items()) {
      if (!x.is_number_integer()) return Fail(field, "an object of integers");
      (*out)[key] = x.get<int64_t>();
    }
  }
  const Json* Object(const char* field) { return Find(field, "an object", &Json::is_object); }
  const absl::Status& status() const { return status_; }

 private:
  const Json* Find(const char* field, std::string_view want, bool (Json::*is)() const noexcept) {
    auto it = obj_.find(field);
    if (it == obj_.end() || it->is_null()) return nullptr;
    if (!((*it).*is)()) {
      Fail(field, want);
      return nullptr;
    }
    return &*it;
  }
  void Fail(std::string_view field, std::string_view want) {
    if (status_.ok()) status_ = FieldError(message_, field, want);
  }

  const Json& obj_;
  std::string_view message_;
  absl::Status status_;
};

absl::StatusOr<Json> ParseObject(std::string_view line, std::string_view message) {
  Json obj = JsonNestingWithin(line)
                 ? Json::parse(line.begin(), line.end(), nullptr, /*allow_exceptions=*/false)
                 : Json(Json::value_t::discarded);
  if (obj.is_discarded() || !obj.is_object()) {
    return absl::InvalidArgumentError(
        absl::StrCat("measure ", std::string(message), ": not a JSON object of at most ",
                     kMaxJsonNesting, " levels: ", std::string(line.substr(0, 200))));
  }
  return obj;
}

Json OptionsToJson(const CandidateOptions& o) {
  return Json{{"number", o.number},
              {"repeat", o.repeat},
              {"min_repeat_ms", o.min_repeat_ms},
              {"cooldown_ms", o.cooldown_ms},
              {"flush_cache", o.flush_cache},
              {"check_correctness", o.check_correctness},
              {"rtol", o.rtol},
              {"atol", o.atol},
              {"slow_cutoff_ratio", o.slow_cutoff_ratio},
              {"threads", o.threads},
              {"seed", o.seed}};
}

void OptionsFromJson(const Json& obj, CandidateOptions* o, absl::Status* status) {
  FieldReader r(obj, "request options");
  r.Int("number", &o->number);
  r.Int("repeat", &o->repeat);
  r.Number("min_repeat_ms", &o->min_repeat_ms);
  r.Number("cooldown_ms", &o->cooldown_ms);
  r.Bool("flush_cache", &o->flush_cache);
  r.Bool("check_correctness", &o->check_correctness);
  r.Number("rtol", &o->rtol);
  r.Number("atol", &o->atol);
  r.Number("slow_cutoff_ratio", &o->slow_cutoff_ratio);
  r.Int("threads", &o->threads);
  r.Uint("seed", &o->seed);
  if (status->ok()) *status = r.status();
}

}  // namespace

std::string_view MeasureStatusName(MeasureStatus status) {
  switch (status) {
    case MeasureStatus::kOk:
      return "ok";
    case MeasureStatus::kRuntimeError:
      return "runtime_error";
    case MeasureStatus::kWrongAnswer:
      return "wrong_answer";
  }
  return "runtime_error";
}

std::string SerializeRequest(const MeasureRequest& q) {
  Json obj{{"id", q.id},
           {"library", q.library_path},
           {"function", q.function_name},
           {"reference_library", q.reference_library_path},
           {"reference_function", q.reference_function},
           {"reference_key", q.reference_key},
           {"bindings", q.bindings},
           {"options", OptionsToJson(q.options)},
           {"best_seconds", q.best_seconds}};
  // Invalid UTF-8 in a path must not throw: it is replaced, and the load then fails by name.
  return obj.dump(-1, ' ', false, Json::error_handler_t::replace);
}

std::string SerializeResponse(const MeasureResponse& p) {
  Json obj{{"id", p.id},
           {"status", std::string(MeasureStatusName(p.status))},
           {"message", p.message},
           {"repeat_seconds", p.repeat_seconds}};
  return obj.dump(-1, ' ', false, Json::error_handler_t::replace);
}

absl::StatusOr<MeasureRequest> ParseRequest(std::string_view line) {
  absl::StatusOr<Json> obj = ParseObject(line, "request");
  if (!obj.ok()) return obj.status();
  MeasureRequest q;
  FieldReader r(*obj, "request");
  r.Int("id", &q.id);
  r.String("library", &q.library_path);
  r.String("function", &q.function_name);
  r.String("reference_library", &q.reference_library_path);
  r.String("reference_function", &q.reference_function);
  r.String("reference_key", &q.reference_key);
  r.IntMap("bindings", &q.bindings);
  r.Number("best_seconds", &q.best_seconds);
  absl::Status status = r.status();
  if (const Json* options = r.Object("options")) OptionsFromJson(*options, &q.options, &status);
  if (status.ok()) status = r.status();
  if (!status.ok()) return status;
  if (q.library_path.empty() != q.function_name.empty()) {
    return absl::InvalidArgumentError(
        "measure request: 'library' and 'function' go together (both empty: prepare the "
        "reference only)");
  }
  if (q.library_path.empty() && q.reference_library_path.empty()) {
    return absl::InvalidArgumentError(
        "measure request: 'library' and 'function' are required (or 'reference_library', to "
        "prepare a reference only)");
  }
  return q;
}

absl::StatusOr<MeasureResponse> ParseResponse(std::string_view line) {
  absl::StatusOr<Json> obj = ParseObject(line, "response");
  if (!obj.ok()) return obj.status();
  MeasureResponse p;
  FieldReader r(*obj, "response");
  std::string status = "ok";
  r.Int("id", &p.id);
  r.String("status", &status);
  r.String("message", &p.message);
  r.Numbers("repeat_seconds", &p.repeat_seconds);
  if (!r.status().ok()) return r.status();
  if (status == "ok") {
    p.status = MeasureStatus::kOk;
  } else if (status == "runtime_error") {
    p.status = MeasureStatus::kRuntimeError;
  } else if (status == "wrong_answer") {
    p.status = MeasureStatus::kWrongAnswer;
  } else {
    return absl::InvalidArgumentError(
        absl::StrCat("measure response: unknown status '", status, "'"));
  }
  return p;
}

}  // namespace tunefarm::runtime::measure
