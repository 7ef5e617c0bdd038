// One Record as one JSON line (the export/import format documented in docs/records.md), with
// strict parsing: a missing, mistyped or unknown field is an error naming the field.
#pragma once

#include <string>
#include <string_view>

#include "absl/status/statusor.h"
#include "tuner/record.h"

namespace tunefarm::tuner {

// Compact JSON, fields in a fixed order, no trailing newline. Deterministic: equal records give
// equal bytes, which is what makes import(export(db)) byte-identical.
std::string RecordToJsonLine(const Record& record);

absl::StatusOr<Record> RecordFromJsonLine(std::string_view line);

// Re-serializes `config_json` in the canonical compact form stored in the database. A config is
// a flat object of knob values (strings, integers, lists of integers); anything else, nesting
// included, is InvalidArgument.
absl::StatusOr<std::string> CanonicalConfigJson(std::string_view config_json);

}  // namespace tunefarm::tuner
