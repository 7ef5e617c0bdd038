#include "compiler/space/choice_knob.h"

#include <algorithm>
#include <utility>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"

namespace tunefarm::space {
namespace {

KnobValue ToKnobValue(const ChoiceValue& v) {
  if (const auto* i = std::get_if<int64_t>(&v)) return *i;
  return std::get<std::string>(v);
}

}  // namespace

absl::StatusOr<std::unique_ptr<ChoiceKnob>> ChoiceKnob::Make(std::string name,
                                                             std::vector<ChoiceValue> values) {
  if (values.empty()) {
    return absl::InvalidArgumentError(absl::StrCat("choice knob '", name, "': no values"));
  }
  for (size_t i = 0; i < values.size(); ++i) {
    if (std::find(values.begin(), values.begin() + i, values[i]) != values.begin() + i) {
      return absl::InvalidArgumentError(absl::StrCat("choice knob '", name, "': value ",
                                                     KnobValueToString(ToKnobValue(values[i])),
                                                     " repeats"));
    }
  }
  return std::unique_ptr<ChoiceKnob>(new ChoiceKnob(std::move(name), std::move(values)));
}

KnobValue ChoiceKnob::ValueAt(int64_t index) const { return ToKnobValue(values_[index]); }

absl::StatusOr<int64_t> ChoiceKnob::IndexOf(const KnobValue& value) const {
  ChoiceValue wanted;
  if (const auto* i = std::get_if<int64_t>(&value)) {
    wanted = *i;
  } else if (const auto* s = std::get_if<std::string>(&value)) {
    wanted = *s;
  } else {
    return OutOfDomain(value);
  }
  auto it = std::find(values_.begin(), values_.end(), wanted);
  if (it == values_.end()) return OutOfDomain(value);
  return it - values_.begin();
}

}  // namespace tunefarm::space
