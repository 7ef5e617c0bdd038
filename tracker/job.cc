// JobSpec <-> JSON (the jobs table keeps each job's spec this way, so a restarted tracker can
// rebuild it) and the job state names stored beside it.
#include "tracker/job.h"

#include <limits>
#include <nlohmann/json.hpp>

#include "absl/strings/str_cat.h"
#include "runtime/core/json_nesting.h"

namespace tunefarm::tracker {
namespace {

using Json = nlohmann::json;

absl::Status FieldError(std::string_view field, std::string_view expected) {
  return absl::InvalidArgumentError(
      absl::StrCat("job spec: field '", std::string(field), "' must be ", std::string(expected)));
}

// Readers for optional fields: a missing field keeps the default, a wrong type is an error
// naming the field (with its parent's prefix, e.g. "measure.repeat").
class Reader {
 public:
  Reader(const Json& obj, std::string prefix) : obj_(obj), prefix_(std::move(prefix)) {}

  absl::Status String(const char* field, std::string* out) const {
    const Json* v = Find(field);
    if (v == nullptr) return absl::OkStatus();
    if (!v->is_string()) return FieldError(Name(field), "a string");
    *out = v->get<std::string>();
    return absl::OkStatus();
  }

  absl::Status Int(const char* field, int* out) const {
    const Json* v = Find(field);
    if (v == nullptr) return absl::OkStatus();
    if (!v->is_number_integer()) return FieldError(Name(field), "an integer");
    if (v->is_number_unsigned()) {
      const uint64_t u = v->get<uint64_t>();
      if (u > static_cast<uint64_t>(std::numeric_limits<int>::max())) {
        return FieldError(Name(field), "a 32-bit integer");
      }
      *out = static_cast<int>(u);
      return absl::OkStatus();
    }
    const int64_t i = v->get<int64_t>();
    if (i < std::numeric_limits<int>::min() || i > std::numeric_limits<int>::max()) {
      return FieldError(Name(field), "a 32-bit integer");
    }
    *out = static_cast<int>(i);
    return absl::OkStatus();
  }

  absl::Status Uint64(const char* field, uint64_t* out) const {
    const Json* v = Find(field);
    if (v == nullptr) return absl::OkStatus();
    if (!v->is_number_unsigned()) return FieldError(Name(field), "a non-negative integer");
    *out = v->get<uint64_t>();
    return absl::OkStatus();
  }

  absl::Status Double(const char* field, double* out) const {
    const Json* v = Find(field);
    if (v == nullptr) return absl::OkStatus();
    if (!v->is_number()) return FieldError(Name(field), "a number");
    *out = v->get<double>();
    return absl::OkStatus();
  }

  absl::Status Bool(const char* field, bool* out) const {
    const Json* v = Find(field);
    if (v == nullptr) return absl::OkStatus();
    if (!v->is_boolean()) return FieldError(Name(field), "true or false");
    *out = v->get<bool>();
    return absl::OkStatus();
  }

  const Json* Find(const char* field) const {
    auto it = obj_.find(field);
    return it == obj_.end() || it->is_null() ? nullptr : &*it;
  }
  std::string Name(const char* field) const { return prefix_ + field; }

 private:
  const Json& obj_;
  std::string prefix_;
};

Json MeasureToJson(const tuner::MeasureOptions& m) {
  return Json{{"number", m.number},
              {"repeat", m.repeat},
              {"min_repeat_ms", m.min_repeat_ms},
              {"cooldown_ms", m.cooldown_ms},
              {"flush_cache", m.flush_cache},
              {"build_timeout_s", m.build_timeout_s},
              {"run_timeout_s", m.run_timeout_s},
              {"check_correctness", m.check_correctness},
              {"rtol", m.rtol},
              {"atol", m.atol},
              {"slow_cutoff_ratio", m.slow_cutoff_ratio},
              {"threads", m.threads}};
}

absl::Status MeasureFromJson(const Json& obj, tuner::MeasureOptions* m) {
  Reader r(obj, "measure.");
  for (auto [field, out] : {std::pair{"number", &m->number},
                            {"repeat", &m->repeat},
                            {"min_repeat_ms", &m->min_repeat_ms},
                            {"cooldown_ms", &m->cooldown_ms},
                            {"threads", &m->threads}}) {
    if (absl::Status s = r.Int(field, out); !s.ok()) return s;
  }
  for (auto [field, out] : {std::pair{"build_timeout_s", &m->build_timeout_s},
                            {"run_timeout_s", &m->run_timeout_s},
                            {"rtol", &m->rtol},
                            {"atol", &m->atol},
                            {"slow_cutoff_ratio", &m->slow_cutoff_ratio}}) {
    if (absl::Status s = r.Double(field, out); !s.ok()) return s;
  }
  if (absl::Status s = r.Bool("flush_cache", &m->flush_cache); !s.ok()) return s;
  return r.Bool("check_correctness", &m->check_correctness);
}

absl::Status BindingsFromJson(const Json& obj, std::map<std::string, int64_t>* out) {
  if (!obj.is_object()) return FieldError("bindings", "an object of integers");
  for (const auto& [name, value] : obj.items()) {
    if (!value.is_number_integer() ||
        (value.is_number_unsigned() &&
         value.get<uint64_t>() > static_cast<uint64_t>(std::numeric_limits<int64_t>::max()))) {
      return FieldError(absl::StrCat("bindings.", name), "an integer");
    }
    (*out)[name] = value.get<int64_t>();
  }
  return absl::OkStatus();
}

}  // namespace

std::string JobSpecToJson(const JobSpec& spec) {
  Json bindings = Json::object();
  for (const auto& [name, value] : spec.bindings) bindings[name] = value;
  Json j{{"workload", spec.workload},
         {"script_source", spec.script_source},
         {"script_name", spec.script_name},
         {"bindings", bindings},
         {"dtype", spec.dtype},
         {"target", spec.target},
         {"device_key", spec.device_key},
         {"trials", spec.trials},
         {"tuner", spec.tuner},
         {"batch_size", spec.batch_size},
         {"early_stopping", spec.early_stopping},
         {"seed", spec.seed},
         {"measure", MeasureToJson(spec.measure)},
         {"priority", spec.priority},
         {"transfer", spec.transfer}};
  return j.dump();
}

absl::StatusOr<JobSpec> JobSpecFromJson(std::string_view json) {
  if (!runtime::JsonNestingWithin(json)) {
    return absl::InvalidArgumentError(
        absl::StrCat("job spec: JSON nested deeper than ", runtime::kMaxJsonNesting, " levels"));
  }
  Json j = Json::parse(json.begin(), json.end(), nullptr, /*allow_exceptions=*/false);
  if (j.is_discarded()) return absl::InvalidArgumentError("job spec: not valid JSON");
  if (!j.is_object()) return absl::InvalidArgumentError("job spec: not a JSON object");
  JobSpec spec;
  Reader r(j, "");
  for (auto [field, out] : {std::pair{"workload", &spec.workload},
                            {"script_source", &spec.script_source},
                            {"script_name", &spec.script_name},
                            {"dtype", &spec.dtype},
                            {"target", &spec.target},
                            {"device_key", &spec.device_key},
                            {"tuner", &spec.tuner}}) {
    if (absl::Status s = r.String(field, out); !s.ok()) return s;
  }
  for (auto [field, out] : {std::pair{"trials", &spec.trials},
                            {"batch_size", &spec.batch_size},
                            {"early_stopping", &spec.early_stopping},
                            {"priority", &spec.priority}}) {
    if (absl::Status s = r.Int(field, out); !s.ok()) return s;
  }
  if (absl::Status s = r.Uint64("seed", &spec.seed); !s.ok()) return s;
  if (absl::Status s = r.Bool("transfer", &spec.transfer); !s.ok()) return s;
  if (const Json* b = r.Find("bindings"); b != nullptr) {
    if (absl::Status s = BindingsFromJson(*b, &spec.bindings); !s.ok()) return s;
  }
  if (const Json* m = r.Find("measure"); m != nullptr) {
    if (!m->is_object()) return FieldError("measure", "an object");
    if (absl::Status s = MeasureFromJson(*m, &spec.measure); !s.ok()) return s;
  }
  // A spec stored by an older tracker may hold numbers no longer accepted (a run_timeout_s of
  // 1e300 expires every lease at once): such a job is refused, not resumed.
  if (absl::Status s = tuner::ValidateMeasureOptions(spec.measure); !s.ok()) {
    return absl::InvalidArgumentError(absl::StrCat("job spec: ", s.message()));
  }
  return spec;
}

std::string_view JobStateName(JobState state) {
  switch (state) {
    case JobState::kQueued:
      return "queued";
    case JobState::kRunning:
      return "running";
    case JobState::kSucceeded:
      return "succeeded";
    case JobState::kFailed:
      return "failed";
    case JobState::kCancelled:
      return "cancelled";
  }
  return "unknown";
}

absl::StatusOr<JobState> ParseJobState(std::string_view name) {
  for (JobState s : {JobState::kQueued, JobState::kRunning, JobState::kSucceeded, JobState::kFailed,
                     JobState::kCancelled}) {
    if (JobStateName(s) == name) return s;
  }
  return absl::InvalidArgumentError(
      absl::StrCat("unknown job state '", std::string(name),
                   "'; known: queued, running, succeeded, failed, cancelled"));
}

}  // namespace tunefarm::tracker
