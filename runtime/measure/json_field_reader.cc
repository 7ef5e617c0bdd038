#include "runtime/measure/json_field_reader.h"

#include <cmath>
#include <limits>
#include <nlohmann/json.hpp>

#include "absl/strings/str_cat.h"

namespace tunefarm::runtime::measure {

using Json = nlohmann::json;

JsonFieldReader::JsonFieldReader(const Json& obj, std::string_view context, std::string_view prefix)
    : obj_(obj), context_(context), prefix_(prefix) {}

void JsonFieldReader::String(const char* field, std::string* out) {
  if (const Json* v = Find(field, "a string", &Json::is_string)) *out = v->get<std::string>();
}

void JsonFieldReader::Int(const char* field, int64_t* out) {
  const Json* v = Find(field, "an integer", &Json::is_number_integer);
  if (v == nullptr) return;
  if (v->is_number_unsigned() &&
      v->get<uint64_t>() > static_cast<uint64_t>(std::numeric_limits<int64_t>::max())) {
    return Fail(field, "an integer within 64 bits");
  }
  *out = v->get<int64_t>();
}

void JsonFieldReader::Int(const char* field, int* out) {
  int64_t value = *out;
  Int(field, &value);
  if (value < std::numeric_limits<int>::min() || value > std::numeric_limits<int>::max()) {
    return Fail(field, "an integer within 32 bits");
  }
  *out = static_cast<int>(value);
}

void JsonFieldReader::Uint(const char* field, uint64_t* out) {
  if (const Json* v = Find(field, "an unsigned integer", &Json::is_number_unsigned)) {
    *out = v->get<uint64_t>();
  }
}

void JsonFieldReader::Number(const char* field, double* out) {
  const Json* v = Find(field, "a finite number", &Json::is_number);
  if (v == nullptr) return;
  if (!std::isfinite(v->get<double>())) return Fail(field, "a finite number");
  *out = v->get<double>();
}

void JsonFieldReader::Bool(const char* field, bool* out) {
  if (const Json* v = Find(field, "a boolean", &Json::is_boolean)) *out = v->get<bool>();
}

void JsonFieldReader::Numbers(const char* field, std::vector<double>* out) {
  const Json* v = Find(field, "an array of numbers", &Json::is_array);
  if (v == nullptr) return;
  for (const Json& x : *v) {
    if (!x.is_number() || !std::isfinite(x.get<double>())) {
      return Fail(field, "an array of finite numbers");
    }
    out->push_back(x.get<double>());
  }
}

void JsonFieldReader::IntMap(const char* field, std::map<std::string, int64_t>* out) {
  const Json* v = Find(field, "an object of integers", &Json::is_object);
  if (v == nullptr) return;
  for (const auto& [key, x] : v->items()) {
    if (!x.is_number_integer() ||
        (x.is_number_unsigned() &&
         x.get<uint64_t>() > static_cast<uint64_t>(std::numeric_limits<int64_t>::max()))) {
      return Fail(absl::StrCat(field, ".", key), "an integer within 64 bits");
    }
    (*out)[key] = x.get<int64_t>();
  }
}

const Json* JsonFieldReader::Object(const char* field) {
  return Find(field, "an object", &Json::is_object);
}

const Json* JsonFieldReader::Find(const char* field, std::string_view want,
                                  bool (Json::*is)() const noexcept) {
  auto it = obj_.find(field);
  if (it == obj_.end() || it->is_null()) return nullptr;
  if (!((*it).*is)()) {
    Fail(field, want);
    return nullptr;
  }
  return &*it;
}

void JsonFieldReader::Fail(std::string_view field, std::string_view want) {
  if (!status_.ok()) return;
  status_ = absl::InvalidArgumentError(absl::StrCat(
      context_, ": field '", prefix_, std::string(field), "' is not ", std::string(want)));
}

}  // namespace tunefarm::runtime::measure
