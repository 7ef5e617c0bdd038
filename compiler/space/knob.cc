#include "compiler/space/knob.h"

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"

namespace tunefarm::space {

const char* KnobKindName(KnobKind kind) {
  switch (kind) {
    case KnobKind::kSplit:
      return "split";
    case KnobKind::kReorder:
      return "reorder";
    case KnobKind::kAnnotate:
      return "annotate";
    case KnobKind::kChoice:
      return "choice";
  }
  return "unknown";
}

std::string KnobValueToString(const KnobValue& value) {
  if (const auto* list = std::get_if<std::vector<int64_t>>(&value)) {
    return absl::StrCat("[", absl::StrJoin(*list, ","), "]");
  }
  if (const auto* i = std::get_if<int64_t>(&value)) return absl::StrCat(*i);
  return absl::StrCat("\"", std::get<std::string>(value), "\"");
}

absl::Status Knob::OutOfDomain(const KnobValue& value) const {
  return absl::InvalidArgumentError(absl::StrCat("value ", KnobValueToString(value),
                                                 " is outside the domain of ", KnobKindName(kind()),
                                                 " knob '", name_, "'"));
}

}  // namespace tunefarm::space
