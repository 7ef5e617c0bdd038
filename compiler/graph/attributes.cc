#include "compiler/graph/attributes.h"

#include <cstdio>
#include <cstdlib>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"

namespace tunefarm::graph {
namespace {

const char* KindName(const AttrValue& value) {
  static constexpr const char* kNames[] = {"int", "float", "string", "ints", "floats"};
  return kNames[value.index()];
}

template <typename T>
absl::StatusOr<T> Get(const std::map<std::string, AttrValue>& values, const std::string& name,
                      T fallback, const char* wanted) {
  auto it = values.find(name);
  if (it == values.end()) return fallback;
  if (const T* v = std::get_if<T>(&it->second)) return *v;
  return absl::InvalidArgumentError(
      absl::StrCat("attribute '", name, "' should be ", wanted, " but is ", KindName(it->second)));
}

std::string FormatFloat(double v) {
  // The shortest text that reads back as the same value; a value that is a float32 (every ONNX
  // float attribute) as the same float32, so 0.2f prints "0.2", not "0.20000000298023224".
  bool is_float = static_cast<double>(static_cast<float>(v)) == v;
  char buf[32];
  for (int precision = 6; precision <= 17; ++precision) {
    snprintf(buf, sizeof buf, "%.*g", precision, v);
    double back = strtod(buf, nullptr);
    if (is_float ? static_cast<float>(back) == static_cast<float>(v) : back == v) break;
  }
  return buf;
}

}  // namespace

absl::StatusOr<int64_t> Attributes::Int(const std::string& name, int64_t fallback) const {
  return Get<int64_t>(values_, name, fallback, "an int");
}

absl::StatusOr<double> Attributes::Float(const std::string& name, double fallback) const {
  auto it = values_.find(name);
  if (it != values_.end()) {
    if (const int64_t* v = std::get_if<int64_t>(&it->second)) return static_cast<double>(*v);
  }
  return Get<double>(values_, name, fallback, "a float");
}

absl::StatusOr<std::string> Attributes::String(const std::string& name,
                                               std::string fallback) const {
  return Get<std::string>(values_, name, std::move(fallback), "a string");
}

absl::StatusOr<std::vector<int64_t>> Attributes::Ints(const std::string& name,
                                                      std::vector<int64_t> fallback) const {
  return Get<std::vector<int64_t>>(values_, name, std::move(fallback), "a list of ints");
}

absl::StatusOr<std::vector<double>> Attributes::Floats(const std::string& name,
                                                       std::vector<double> fallback) const {
  return Get<std::vector<double>>(values_, name, std::move(fallback), "a list of floats");
}

std::string AttrValueToString(const AttrValue& value) {
  struct Printer {
    std::string operator()(int64_t v) const { return absl::StrCat(v); }
    std::string operator()(double v) const { return FormatFloat(v); }
    std::string operator()(const std::string& v) const { return absl::StrCat("\"", v, "\""); }
    std::string operator()(const std::vector<int64_t>& v) const {
      return absl::StrCat("[", absl::StrJoin(v, ","), "]");
    }
    std::string operator()(const std::vector<double>& v) const {
      return absl::StrCat(
          "[",
          absl::StrJoin(v, ",", [](std::string* out, double d) { out->append(FormatFloat(d)); }),
          "]");
    }
  };
  return std::visit(Printer{}, value);
}

}  // namespace tunefarm::graph
