// MeasureOptions as a JSON object: the one JSON form, used by the measure protocol's requests
// and by the jobs table's specs (a restarted tracker reads its jobs back with it).
#pragma once

#include <nlohmann/json_fwd.hpp>
#include <string_view>

#include "absl/status/status.h"
#include "runtime/measure/measure_options.h"

namespace tunefarm::runtime::measure {

// Every field, by its MeasureOptions name.
nlohmann::json MeasureOptionsToJson(const MeasureOptions& options);

// Reads the fields present in `obj` into `options`; a missing field keeps its value. A field of
// the wrong type is InvalidArgument "<context>: field '<prefix><name>' is not ...". Ranges are
// ValidateMeasureOptions' business.
absl::Status MeasureOptionsFromJson(const nlohmann::json& obj, std::string_view context,
                                    std::string_view prefix, MeasureOptions* options);

}  // namespace tunefarm::runtime::measure
