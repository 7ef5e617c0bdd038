#include "runtime/measure/measure_protocol.h"

#include <cmath>
#include <limits>
#include <nlohmann/json.hpp>

#include "absl/strings/str_cat.h"
#include "runtime/core/json_nesting.h"
#include "runtime/measure/json_field_reader.h"
#include "runtime/measure/measure_options_json.h"

namespace tunefarm::runtime::measure {
namespace {

using Json = nlohmann::json;

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

}  // namespace

std::string SerializeRequest(const MeasureRequest& q) {
  Json obj{{"id", q.id},
           {"library", q.library_path},
           {"function", q.function_name},
           {"reference_library", q.reference_library_path},
           {"reference_function", q.reference_function},
           {"reference_key", q.reference_key},
           {"bindings", q.bindings},
           {"options", MeasureOptionsToJson(q.options)},
           {"best_seconds", q.best_seconds}};
  // Invalid UTF-8 in a path must not throw: it is replaced, and the load then fails by name.
  return obj.dump(-1, ' ', false, Json::error_handler_t::replace);
}

std::string SerializeResponse(const MeasureResponse& p) {
  Json obj{{"id", p.id},
           {"status", std::string(ErrorKindName(p.status))},
           {"message", p.message},
           {"repeat_seconds", p.repeat_seconds},
           {"spread", p.spread},
           {"canary_ratio", p.canary_ratio},
           {"attempts", p.attempts},
           {"noisy", p.noisy}};
  return obj.dump(-1, ' ', false, Json::error_handler_t::replace);
}

absl::StatusOr<MeasureRequest> ParseRequest(std::string_view line) {
  absl::StatusOr<Json> obj = ParseObject(line, "request");
  if (!obj.ok()) return obj.status();
  MeasureRequest q;
  JsonFieldReader r(*obj, "measure request");
  r.Int("id", &q.id);
  r.String("library", &q.library_path);
  r.String("function", &q.function_name);
  r.String("reference_library", &q.reference_library_path);
  r.String("reference_function", &q.reference_function);
  r.String("reference_key", &q.reference_key);
  r.IntMap("bindings", &q.bindings);
  r.Number("best_seconds", &q.best_seconds);
  absl::Status status = r.status();
  if (const Json* options = r.Object("options"); options != nullptr && status.ok()) {
    status = MeasureOptionsFromJson(*options, "measure request", "options.", &q.options);
  }
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
  JsonFieldReader r(*obj, "measure response");
  std::string status = "ok";
  r.Int("id", &p.id);
  r.String("status", &status);
  r.String("message", &p.message);
  r.Numbers("repeat_seconds", &p.repeat_seconds);
  r.Number("spread", &p.spread);
  r.Number("canary_ratio", &p.canary_ratio);
  r.Int("attempts", &p.attempts);
  r.Bool("noisy", &p.noisy);
  if (!r.status().ok()) return r.status();
  absl::StatusOr<ErrorKind> kind = ParseErrorKind(status);
  // A child ends a request in one of three ways; timeouts and lost children are the parent's to
  // decide, and build kinds never reach a child.
  if (!kind.ok() || (*kind != ErrorKind::kOk && *kind != ErrorKind::kRuntimeError &&
                     *kind != ErrorKind::kWrongAnswer)) {
    return absl::InvalidArgumentError(
        absl::StrCat("measure response: unknown status '", status, "'"));
  }
  p.status = *kind;
  return p;
}

}  // namespace tunefarm::runtime::measure
