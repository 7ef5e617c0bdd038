#include "compiler/space/config.h"

#include <utility>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "compiler/space/config_space.h"
#include "compiler/space/reorder_knob.h"
#include "compiler/space/split_knob.h"

namespace tunefarm::space {

absl::StatusOr<std::pair<const Knob*, int64_t>> Config::Lookup(std::string_view name,
                                                               KnobKind kind) const {
  const int pos = space_->KnobPosition(name);
  if (pos < 0) return absl::NotFoundError(absl::StrCat("unknown knob '", std::string(name), "'"));
  const Knob& knob = space_->knob(pos);
  if (knob.kind() != kind) {
    return absl::InvalidArgumentError(absl::StrCat("knob '", std::string(name), "' is a ",
                                                   KnobKindName(knob.kind()), " knob, not a ",
                                                   KnobKindName(kind), " knob"));
  }
  return std::make_pair(&knob, knob_indices_[pos]);
}

absl::StatusOr<KnobValue> Config::Value(std::string_view knob) const {
  const int pos = space_->KnobPosition(knob);
  if (pos < 0) return absl::NotFoundError(absl::StrCat("unknown knob '", std::string(knob), "'"));
  return space_->knob(pos).ValueAt(knob_indices_[pos]);
}

absl::StatusOr<std::vector<int64_t>> Config::SplitFactors(std::string_view knob) const {
  auto found = Lookup(knob, KnobKind::kSplit);
  if (!found.ok()) return found.status();
  return static_cast<const SplitKnob*>(found->first)->FactorsAt(found->second);
}

absl::StatusOr<std::vector<int64_t>> Config::Permutation(std::string_view knob) const {
  auto found = Lookup(knob, KnobKind::kReorder);
  if (!found.ok()) return found.status();
  return static_cast<const ReorderKnob*>(found->first)->PermutationAt(found->second);
}

absl::StatusOr<Annotation> Config::AnnotationOf(std::string_view knob) const {
  auto found = Lookup(knob, KnobKind::kAnnotate);
  if (!found.ok()) return found.status();
  return static_cast<const AnnotateKnob*>(found->first)->AnnotationAt(found->second);
}

absl::StatusOr<ChoiceValue> Config::Choice(std::string_view knob) const {
  auto found = Lookup(knob, KnobKind::kChoice);
  if (!found.ok()) return found.status();
  return static_cast<const ChoiceKnob*>(found->first)->ChoiceAt(found->second);
}

absl::StatusOr<int64_t> Config::ChoiceInt(std::string_view knob) const {
  absl::StatusOr<ChoiceValue> v = Choice(knob);
  if (!v.ok()) return v.status();
  if (const auto* i = std::get_if<int64_t>(&*v)) return *i;
  return absl::InvalidArgumentError(
      absl::StrCat("choice knob '", std::string(knob), "' holds a string"));
}

absl::StatusOr<std::string> Config::ChoiceString(std::string_view knob) const {
  absl::StatusOr<ChoiceValue> v = Choice(knob);
  if (!v.ok()) return v.status();
  if (const auto* s = std::get_if<std::string>(&*v)) return *s;
  return absl::InvalidArgumentError(
      absl::StrCat("choice knob '", std::string(knob), "' holds an integer"));
}

}  // namespace tunefarm::space
