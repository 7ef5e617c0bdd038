// An annotate knob: which loop annotation (none, unroll, vectorize, parallel) a template applies to
// a set of axes it names. The knob only holds the allowed choices; the template owns the axes.
#ifndef TUNEFARM_COMPILER_SPACE_ANNOTATE_KNOB_H_
#define TUNEFARM_COMPILER_SPACE_ANNOTATE_KNOB_H_

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "compiler/space/knob.h"

namespace tunefarm::space {

enum class Annotation { kNone, kUnroll, kVectorize, kParallel };

// The JSON spelling: "none", "unroll", "vectorize", "parallel".
const char* AnnotationName(Annotation a);
std::optional<Annotation> ParseAnnotation(std::string_view name);

class AnnotateKnob final : public Knob {
 public:
  // InvalidArgument for an empty or repeating choice list.
  static absl::StatusOr<std::unique_ptr<AnnotateKnob>> Make(std::string name,
                                                            std::vector<Annotation> choices);

  KnobKind kind() const override { return KnobKind::kAnnotate; }
  int64_t size() const override { return static_cast<int64_t>(choices_.size()); }
  KnobValue ValueAt(int64_t index) const override {
    return std::string(AnnotationName(choices_[index]));
  }
  absl::StatusOr<int64_t> IndexOf(const KnobValue& value) const override;

  Annotation AnnotationAt(int64_t index) const { return choices_[index]; }

 private:
  AnnotateKnob(std::string name, std::vector<Annotation> choices)
      : Knob(std::move(name)), choices_(std::move(choices)) {}

  std::vector<Annotation> choices_;
};

}  // namespace tunefarm::space

#endif  // TUNEFARM_COMPILER_SPACE_ANNOTATE_KNOB_H_
