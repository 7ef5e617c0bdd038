// Attributes of a graph node: named, typed constants that configure an op (strides, axes, alpha).
// Every op documents its attributes in op_list.h.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <variant>
#include <vector>

#include "absl/status/statusor.h"

namespace tunefarm::graph {

// The kinds ONNX's supported ops need once their inputs that are really parameters (Reshape's
// shape, Pad's pads) have become attributes. Floats are kept as double: every float32 value is
// exact in it, and printing round-trips.
using AttrValue =
    std::variant<int64_t, double, std::string, std::vector<int64_t>, std::vector<double>>;

class Attributes {
 public:
  Attributes() = default;
  Attributes(std::initializer_list<std::pair<const std::string, AttrValue>> values)
      : values_(values) {}

  void Set(const std::string& name, AttrValue value) { values_[name] = std::move(value); }
  bool Has(const std::string& name) const { return values_.count(name) != 0; }
  // Sorted by name, so printing and comparing are deterministic.
  const std::map<std::string, AttrValue>& values() const { return values_; }

  // The value of `name`, `fallback` when absent; an attribute of another kind is an error that
  // names it. An int attribute is accepted where a float is asked for.
  absl::StatusOr<int64_t> Int(const std::string& name, int64_t fallback) const;
  absl::StatusOr<double> Float(const std::string& name, double fallback) const;
  absl::StatusOr<std::string> String(const std::string& name, std::string fallback) const;
  absl::StatusOr<std::vector<int64_t>> Ints(const std::string& name,
                                            std::vector<int64_t> fallback) const;
  absl::StatusOr<std::vector<double>> Floats(const std::string& name,
                                             std::vector<double> fallback) const;

  friend bool operator==(const Attributes& a, const Attributes& b) {
    return a.values_ == b.values_;
  }

 private:
  std::map<std::string, AttrValue> values_;
};

// "3", "0.5", "\"constant\"", "[1,2]", "[0.5,1]".
std::string AttrValueToString(const AttrValue& value);

}  // namespace tunefarm::graph
