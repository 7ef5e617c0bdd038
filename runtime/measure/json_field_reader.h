// JsonFieldReader: reads the optional, typed fields of one JSON object from outside (a measure
// protocol line, a job spec), remembering the first type error. A missing or null field keeps
// its default; reading never throws, since every value's type is checked before it is read.
#pragma once

#include <cstdint>
#include <map>
#include <nlohmann/json_fwd.hpp>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/status.h"

namespace tunefarm::runtime::measure {

class JsonFieldReader {
 public:
  // Errors read "<context>: field '<prefix><name>' is not <what>".
  JsonFieldReader(const nlohmann::json& obj, std::string_view context,
                  std::string_view prefix = "");

  void String(const char* field, std::string* out);
  void Int(const char* field, int64_t* out);
  void Int(const char* field, int* out);  // within 32 bits
  void Uint(const char* field, uint64_t* out);
  // Finite only: the parser reads 1e400 as infinity, which no option or time may be.
  void Number(const char* field, double* out);
  void Bool(const char* field, bool* out);
  void Numbers(const char* field, std::vector<double>* out);  // finite ones
  void IntMap(const char* field, std::map<std::string, int64_t>* out);
  // The field's object, or null when it is missing (or not an object: an error).
  const nlohmann::json* Object(const char* field);

  const absl::Status& status() const { return status_; }

 private:
  const nlohmann::json* Find(const char* field, std::string_view want,
                             bool (nlohmann::json::*is)() const noexcept);
  void Fail(std::string_view field, std::string_view want);

  const nlohmann::json& obj_;
  std::string context_;
  std::string prefix_;
  absl::Status status_;
};

}  // namespace tunefarm::runtime::measure
