// The knob interface: one named, finite, ordered set of values a template can choose from.
// Each kind (split, reorder, annotate, choice) lives in its own file and implements this.
#ifndef TUNEFARM_COMPILER_SPACE_KNOB_H_
#define TUNEFARM_COMPILER_SPACE_KNOB_H_

#include <cstdint>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "absl/status/statusor.h"

namespace tunefarm::space {

enum class KnobKind { kSplit, kReorder, kAnnotate, kChoice };

const char* KnobKindName(KnobKind kind);

// One knob value, in the shape it has in JSON: split factors and permutations are integer
// lists, annotations are strings, and plain choices are an integer or a string. Keeping the value
// kind-agnostic lets the JSON code and Config stay generic over knob kinds.
using KnobValue = std::variant<std::vector<int64_t>, int64_t, std::string>;

std::string KnobValueToString(const KnobValue& value);

class Knob {
 public:
  explicit Knob(std::string name) : name_(std::move(name)) {}
  virtual ~Knob() = default;
  Knob(const Knob&) = delete;
  Knob& operator=(const Knob&) = delete;

  const std::string& name() const { return name_; }
  virtual KnobKind kind() const = 0;
  // Number of values; always >= 1 for a knob that a ConfigSpace accepted.
  virtual int64_t size() const = 0;
  // The value at `index`, 0 <= index < size(); the caller checks the range.
  virtual KnobValue ValueAt(int64_t index) const = 0;
  // The inverse of ValueAt; InvalidArgument naming the knob when `value` is outside the domain.
  virtual absl::StatusOr<int64_t> IndexOf(const KnobValue& value) const = 0;

 protected:
  // The error every IndexOf returns for a value outside the domain, so messages read alike.
  absl::Status OutOfDomain(const KnobValue& value) const;

 private:
  std::string name_;
};

}  // namespace tunefarm::space

#endif  // TUNEFARM_COMPILER_SPACE_KNOB_H_
