// A plain choice knob: an ordered list of integer or string values (a packing flag, an unroll
// depth, a layout name) that a template interprets itself.
#ifndef TUNEFARM_COMPILER_SPACE_CHOICE_KNOB_H_
#define TUNEFARM_COMPILER_SPACE_CHOICE_KNOB_H_

#include <cstdint>
#include <memory>
#include <string>
#include <variant>
#include <vector>

#include "absl/status/statusor.h"
#include "compiler/space/knob.h"

namespace tunefarm::space {

using ChoiceValue = std::variant<int64_t, std::string>;

class ChoiceKnob final : public Knob {
 public:
  // InvalidArgument for an empty or repeating value list. Ints and strings may be mixed.
  static absl::StatusOr<std::unique_ptr<ChoiceKnob>> Make(std::string name,
                                                          std::vector<ChoiceValue> values);

  KnobKind kind() const override { return KnobKind::kChoice; }
  int64_t size() const override { return static_cast<int64_t>(values_.size()); }
  KnobValue ValueAt(int64_t index) const override;
  absl::StatusOr<int64_t> IndexOf(const KnobValue& value) const override;

  const ChoiceValue& ChoiceAt(int64_t index) const { return values_[index]; }

 private:
  ChoiceKnob(std::string name, std::vector<ChoiceValue> values)
      : Knob(std::move(name)), values_(std::move(values)) {}

  std::vector<ChoiceValue> values_;
};

}  // namespace tunefarm::space

#endif  // TUNEFARM_COMPILER_SPACE_CHOICE_KNOB_H_
