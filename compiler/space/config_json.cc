#include "compiler/space/config_json.h"

#include <cstdint>
#include <limits>
#include <nlohmann/json.hpp>
#include <optional>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "runtime/core/json_nesting.h"

namespace tunefarm::space {
namespace {

std::optional<int64_t> AsInt(const nlohmann::json& j) {
  if (j.is_number_unsigned()) {
    const auto u = j.get<uint64_t>();
    if (u > static_cast<uint64_t>(std::numeric_limits<int64_t>::max())) return std::nullopt;
    return static_cast<int64_t>(u);
  }
  if (j.is_number_integer()) return j.get<int64_t>();
  return std::nullopt;  // floats and booleans are never knob values
}

// The KnobValue a JSON value spells, or nullopt when no knob could hold it.
std::optional<KnobValue> ToKnobValue(const nlohmann::json& j) {
  if (j.is_string()) return KnobValue(j.get<std::string>());
  if (std::optional<int64_t> i = AsInt(j)) return KnobValue(*i);
  if (!j.is_array()) return std::nullopt;
  std::vector<int64_t> list;
  for (const nlohmann::json& e : j) {
    std::optional<int64_t> i = AsInt(e);
    if (!i.has_value()) return std::nullopt;
    list.push_back(*i);
  }
  return KnobValue(std::move(list));
}

}  // namespace

std::string ConfigToJson(const Config& config) {
  // ordered_json keeps definition order; plain json would sort the keys.
  nlohmann::ordered_json out = nlohmann::ordered_json::object();
  const ConfigSpace& space = config.space();
  for (int i = 0; i < space.num_knobs(); ++i) {
    const Knob& knob = space.knob(i);
    KnobValue v = knob.ValueAt(config.knob_indices()[i]);
    if (auto* list = std::get_if<std::vector<int64_t>>(&v)) {
      out[knob.name()] = *list;
    } else if (auto* n = std::get_if<int64_t>(&v)) {
      out[knob.name()] = *n;
    } else {
      out[knob.name()] = std::get<std::string>(v);
    }
  }
  return out.dump();
}

absl::StatusOr<Config> ConfigFromJson(const ConfigSpace& space, std::string_view json) {
  // Quoted in errors up to here: a config is a line of knobs, not a document.
  const std::string quoted(json.substr(0, 200));
  if (!runtime::JsonNestingWithin(json)) {
    return absl::InvalidArgumentError(absl::StrCat("config JSON nested deeper than ",
                                                   runtime::kMaxJsonNesting, " levels: ", quoted));
  }
  const nlohmann::json parsed = nlohmann::json::parse(json, nullptr, /*allow_exceptions=*/false);
  if (parsed.is_discarded()) {
    return absl::InvalidArgumentError(absl::StrCat("malformed config JSON: ", quoted));
  }
  if (!parsed.is_object()) {
    return absl::InvalidArgumentError(absl::StrCat("config JSON is not an object: ", quoted));
  }
  for (const auto& [key, unused] : parsed.items()) {
    if (space.KnobPosition(key) < 0) {
      return absl::InvalidArgumentError(absl::StrCat("unknown knob '", key, "' in config JSON"));
    }
  }
  std::vector<int64_t> indices(space.num_knobs());
  for (int i = 0; i < space.num_knobs(); ++i) {
    const Knob& knob = space.knob(i);
    auto it = parsed.find(knob.name());
    if (it == parsed.end()) {
      return absl::InvalidArgumentError(
          absl::StrCat("missing knob '", knob.name(), "' in config JSON"));
    }
    std::optional<KnobValue> value = ToKnobValue(*it);
    if (!value.has_value()) {
      return absl::InvalidArgumentError(
          absl::StrCat("value ", it->dump(), " is outside the domain of ",
                       KnobKindName(knob.kind()), " knob '", knob.name(), "'"));
    }
    absl::StatusOr<int64_t> index = knob.IndexOf(*value);
    if (!index.ok()) return index.status();
    indices[i] = *index;
  }
  return space.FromKnobIndices(std::move(indices));
}

}  // namespace tunefarm::space
