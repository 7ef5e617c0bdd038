// A config space: the ordered, named knobs a template declares plus the constraints that drop
// invalid points. Maps configs to and from a mixed-radix index, and checks validity.
#ifndef TUNEFARM_COMPILER_SPACE_CONFIG_SPACE_H_
#define TUNEFARM_COMPILER_SPACE_CONFIG_SPACE_H_

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "compiler/space/annotate_knob.h"
#include "compiler/space/choice_knob.h"
#include "compiler/space/config.h"
#include "compiler/space/knob.h"
#include "compiler/space/split_knob.h"

namespace tunefarm::space {

// A predicate that keeps a config; the name appears in errors ("tile fits L1").
struct Constraint {
  std::string name;
  std::function<bool(const Config&)> allows;
};

// Define every knob before creating configs: a config made earlier lacks the later knobs.
// The space is neither copyable nor movable because configs point at it.
class ConfigSpace {
 public:
  ConfigSpace() = default;
  ConfigSpace(const ConfigSpace&) = delete;
  ConfigSpace& operator=(const ConfigSpace&) = delete;

  // Each Define* is InvalidArgument for a duplicate name, bad knob options, or a space whose
  // size would overflow int64.
  absl::Status DefineSplit(std::string name, const SplitOptions& options);
  absl::Status DefineReorder(std::string name, int num_axes);
  absl::Status DefineReorderCandidates(std::string name,
                                       std::vector<std::vector<int64_t>> candidates);
  absl::Status DefineAnnotate(std::string name, std::vector<Annotation> choices);
  absl::Status DefineChoice(std::string name, std::vector<ChoiceValue> values);
  absl::Status AddKnob(std::unique_ptr<Knob> knob);
  // InvalidArgument for a duplicate constraint name or an empty predicate.
  absl::Status AddConstraint(std::string name, std::function<bool(const Config&)> allows);

  // The product of knob sizes, before constraints: the range of indices. Counting valid configs
  // needs a scan, so it is a separate call (CountValid).
  int64_t size() const { return size_; }
  int num_knobs() const { return static_cast<int>(knobs_.size()); }
  const Knob& knob(int position) const { return *knobs_[position]; }
  // Position of the knob named `name` in definition order, or -1.
  int KnobPosition(std::string_view name) const;
  const std::vector<Constraint>& constraints() const { return constraints_; }

  // Index digits are mixed radix with the first-defined knob least significant:
  // index = i0 + s0 * (i1 + s1 * (i2 + ...)). OutOfRange outside [0, size()).
  absl::StatusOr<Config> Get(int64_t index) const;
  // OutOfRange when a value index is outside its knob; InvalidArgument for a wrong count.
  absl::StatusOr<Config> FromKnobIndices(std::vector<int64_t> knob_indices) const;

  bool IsValid(const Config& config) const;
  // OK, or FailedPrecondition naming the first constraint the config breaks.
  absl::Status CheckValid(const Config& config) const;
  // Valid configs, counted by visiting every index: O(size()) predicate calls. ResourceExhausted
  // when size() exceeds `max_scan`, so a caller cannot stall on a huge space by accident.
  absl::StatusOr<int64_t> CountValid(int64_t max_scan = int64_t{1} << 22) const;

 private:
  absl::Status CheckNewName(std::string_view name) const;

  std::vector<std::unique_ptr<Knob>> knobs_;
  std::vector<Constraint> constraints_;
  int64_t size_ = 1;
};

}  // namespace tunefarm::space

#endif  // TUNEFARM_COMPILER_SPACE_CONFIG_SPACE_H_
