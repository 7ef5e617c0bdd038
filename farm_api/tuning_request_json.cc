#include "farm_api/tuning_request_json.h"

#include <nlohmann/json.hpp>
#include <utility>

#include "absl/strings/str_cat.h"
#include "runtime/measure/json_field_reader.h"
#include "runtime/measure/measure_options_json.h"

namespace tunefarm::farm_api {

void AddTuningRequestJson(const tuner::TuningRequest& r, nlohmann::json& obj) {
  obj["target"] = r.target;
  obj["device_key"] = r.device_key;
  obj["trials"] = r.trials;
  obj["tuner"] = r.tuner;
  obj["batch_size"] = r.batch_size;
  obj["early_stopping"] = r.early_stopping;
  obj["seed"] = r.seed;
  obj["measure"] = runtime::measure::MeasureOptionsToJson(r.measure);
  obj["priority"] = r.priority;
  obj["transfer"] = r.transfer;
}

absl::Status ReadTuningRequestJson(const nlohmann::json& obj, std::string_view context,
                                   tuner::TuningRequest& r) {
  runtime::measure::JsonFieldReader reader(obj, context);
  for (auto [field, out] :
       {std::pair{"target", &r.target}, {"device_key", &r.device_key}, {"tuner", &r.tuner}}) {
    reader.String(field, out);
  }
  for (auto [field, out] : {std::pair{"trials", &r.trials},
                            {"batch_size", &r.batch_size},
                            {"early_stopping", &r.early_stopping},
                            {"priority", &r.priority}}) {
    reader.Int(field, out);
  }
  reader.Uint("seed", &r.seed);
  reader.Bool("transfer", &r.transfer);
  const nlohmann::json* m = reader.Object("measure");
  if (!reader.status().ok()) return reader.status();
  if (m != nullptr) {
    // A spec stored before the measure options carried their own seed: the job's seeded the
    // inputs.
    r.measure.seed = r.seed;
    if (absl::Status s =
            runtime::measure::MeasureOptionsFromJson(*m, context, "measure.", &r.measure);
        !s.ok()) {
      return s;
    }
  }
  // A spec stored by an older tracker may hold numbers no longer accepted (a run_timeout_s of
  // 1e300 expires every lease at once): such a job is refused, not resumed.
  if (absl::Status s = runtime::measure::ValidateMeasureOptions(r.measure); !s.ok()) {
    return absl::InvalidArgumentError(absl::StrCat(std::string(context), ": ", s.message()));
  }
  return absl::OkStatus();
}

}  // namespace tunefarm::farm_api
