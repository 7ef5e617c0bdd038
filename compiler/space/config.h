// One point of a ConfigSpace: a value index per knob, with typed access by knob name. The space
// must outlive its configs; templates read the values to apply a schedule.
#ifndef TUNEFARM_COMPILER_SPACE_CONFIG_H_
#define TUNEFARM_COMPILER_SPACE_CONFIG_H_

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "compiler/space/annotate_knob.h"
#include "compiler/space/choice_knob.h"
#include "compiler/space/knob.h"

namespace tunefarm::space {

class ConfigSpace;

class Config {
 public:
  const ConfigSpace& space() const { return *space_; }
  // The mixed-radix index in the space (see ConfigSpace::Get).
  int64_t index() const { return index_; }
  // One value index per knob, in definition order.
  const std::vector<int64_t>& knob_indices() const { return knob_indices_; }

  // Each accessor is NotFound for an unknown knob name; the typed ones are InvalidArgument
  // when the knob has another kind, so a template typo fails loudly instead of reading garbage.
  absl::StatusOr<KnobValue> Value(std::string_view knob) const;
  absl::StatusOr<std::vector<int64_t>> SplitFactors(std::string_view knob) const;
  absl::StatusOr<std::vector<int64_t>> Permutation(std::string_view knob) const;
  absl::StatusOr<Annotation> AnnotationOf(std::string_view knob) const;
  absl::StatusOr<ChoiceValue> Choice(std::string_view knob) const;
  absl::StatusOr<int64_t> ChoiceInt(std::string_view knob) const;
  absl::StatusOr<std::string> ChoiceString(std::string_view knob) const;

  // Same space object and same point.
  bool operator==(const Config& other) const {
    return space_ == other.space_ && index_ == other.index_;
  }

 private:
  friend class ConfigSpace;
  Config(const ConfigSpace* space, std::vector<int64_t> knob_indices, int64_t index)
      : space_(space), knob_indices_(std::move(knob_indices)), index_(index) {}

  // The knob named `name` if it has `kind`, with its value index; errors as described above.
  absl::StatusOr<std::pair<const Knob*, int64_t>> Lookup(std::string_view name,
                                                         KnobKind kind) const;

  const ConfigSpace* space_;
  std::vector<int64_t> knob_indices_;
  int64_t index_;
};

}  // namespace tunefarm::space

#endif  // TUNEFARM_COMPILER_SPACE_CONFIG_H_
