// A TuningRequest's fields in a spec's JSON object: jobs and model jobs store them alike.
#pragma once

#include <nlohmann/json_fwd.hpp>
#include <string_view>

#include "absl/status/status.h"
#include "tuner/tuning_request.h"

namespace tunefarm::farm_api {

void AddTuningRequestJson(const tuner::TuningRequest& request, nlohmann::json& obj);
// Missing fields keep the request's values; InvalidArgument "<context>: ..." names a field of the
// wrong type or measure options no longer accepted (a spec stored by an older tracker).
absl::Status ReadTuningRequestJson(const nlohmann::json& obj, std::string_view context,
                                   tuner::TuningRequest& request);

}  // namespace tunefarm::farm_api
