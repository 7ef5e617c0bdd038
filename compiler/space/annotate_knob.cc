#include "compiler/space/annotate_knob.h"

#include <algorithm>
#include <utility>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"

namespace tunefarm::space {

const char* AnnotationName(Annotation a) {
  switch (a) {
    case Annotation::kNone:
      return "none";
    case Annotation::kUnroll:
      return "unroll";
    case Annotation::kVectorize:
      return "vectorize";
    case Annotation::kParallel:
      return "parallel";
  }
  return "none";
}

std::optional<Annotation> ParseAnnotation(std::string_view name) {
  for (Annotation a :
       {Annotation::kNone, Annotation::kUnroll, Annotation::kVectorize, Annotation::kParallel}) {
    if (AnnotationName(a) == name) return a;
  }
  return std::nullopt;
}

absl::StatusOr<std::unique_ptr<AnnotateKnob>> AnnotateKnob::Make(std::string name,
                                                                 std::vector<Annotation> choices) {
  if (choices.empty()) {
    return absl::InvalidArgumentError(absl::StrCat("annotate knob '", name, "': no choices"));
  }
  for (size_t i = 0; i < choices.size(); ++i) {
    if (std::find(choices.begin(), choices.begin() + i, choices[i]) != choices.begin() + i) {
      return absl::InvalidArgumentError(absl::StrCat("annotate knob '", name, "': choice '",
                                                     AnnotationName(choices[i]), "' repeats"));
    }
  }
  return std::unique_ptr<AnnotateKnob>(new AnnotateKnob(std::move(name), std::move(choices)));
}

absl::StatusOr<int64_t> AnnotateKnob::IndexOf(const KnobValue& value) const {
  const auto* text = std::get_if<std::string>(&value);
  if (text == nullptr) return OutOfDomain(value);
  std::optional<Annotation> a = ParseAnnotation(*text);
  if (!a.has_value()) return OutOfDomain(value);
  auto it = std::find(choices_.begin(), choices_.end(), *a);
  if (it == choices_.end()) return OutOfDomain(value);
  return it - choices_.begin();
}

}  // namespace tunefarm::space
