#include "compiler/space/config_space.h"

#include <limits>
#include <utility>

#include "absl/strings/str_cat.h"
#include "compiler/space/reorder_knob.h"

namespace tunefarm::space {
namespace {

template <typename T>
absl::Status Add(ConfigSpace& space, absl::StatusOr<std::unique_ptr<T>> knob) {
  if (!knob.ok()) return knob.status();
  return space.AddKnob(*std::move(knob));
}

}  // namespace

absl::Status ConfigSpace::CheckNewName(std::string_view name) const {
  if (name.empty()) return absl::InvalidArgumentError("knob name is empty");
  if (KnobPosition(name) >= 0) {
    return absl::InvalidArgumentError(
        absl::StrCat("knob '", std::string(name), "' is defined twice"));
  }
  return absl::OkStatus();
}

absl::Status ConfigSpace::DefineSplit(std::string name, const SplitOptions& options) {
  if (absl::Status s = CheckNewName(name); !s.ok()) return s;
  return Add(*this, SplitKnob::Make(std::move(name), options));
}

absl::Status ConfigSpace::DefineReorder(std::string name, int num_axes) {
  if (absl::Status s = CheckNewName(name); !s.ok()) return s;
  return Add(*this, ReorderKnob::AllPermutations(std::move(name), num_axes));
}

absl::Status ConfigSpace::DefineReorderCandidates(std::string name,
                                                  std::vector<std::vector<int64_t>> candidates) {
  if (absl::Status s = CheckNewName(name); !s.ok()) return s;
  return Add(*this, ReorderKnob::Candidates(std::move(name), std::move(candidates)));
}

absl::Status ConfigSpace::DefineAnnotate(std::string name, std::vector<Annotation> choices) {
  if (absl::Status s = CheckNewName(name); !s.ok()) return s;
  return Add(*this, AnnotateKnob::Make(std::move(name), std::move(choices)));
}

absl::Status ConfigSpace::DefineChoice(std::string name, std::vector<ChoiceValue> values) {
  if (absl::Status s = CheckNewName(name); !s.ok()) return s;
  return Add(*this, ChoiceKnob::Make(std::move(name), std::move(values)));
}

absl::Status ConfigSpace::AddKnob(std::unique_ptr<Knob> knob) {
  if (knob == nullptr) return absl::InvalidArgumentError("null knob");
  if (absl::Status s = CheckNewName(knob->name()); !s.ok()) return s;
  const int64_t n = knob->size();
  if (n < 1) {
    return absl::InvalidArgumentError(absl::StrCat("knob '", knob->name(), "' has no values"));
  }
  if (size_ > std::numeric_limits<int64_t>::max() / n) {
    return absl::InvalidArgumentError(
        absl::StrCat("knob '", knob->name(), "' makes the space larger than int64"));
  }
  size_ *= n;
  knobs_.push_back(std::move(knob));
  return absl::OkStatus();
}

absl::Status ConfigSpace::AddConstraint(std::string name,
                                        std::function<bool(const Config&)> allows) {
  if (!allows) {
    return absl::InvalidArgumentError(absl::StrCat("constraint '", name, "' has no predicate"));
  }
  for (const Constraint& c : constraints_) {
    if (c.name == name) {
      return absl::InvalidArgumentError(absl::StrCat("constraint '", name, "' is defined twice"));
    }
  }
  constraints_.push_back({std::move(name), std::move(allows)});
  return absl::OkStatus();
}

int ConfigSpace::KnobPosition(std::string_view name) const {
  for (int i = 0; i < num_knobs(); ++i) {
    if (knobs_[i]->name() == name) return i;
  }
  return -1;
}

absl::StatusOr<Config> ConfigSpace::Get(int64_t index) const {
  if (index < 0 || index >= size_) {
    return absl::OutOfRangeError(
        absl::StrCat("config index ", index, " is outside [0, ", size_, ")"));
  }
  std::vector<int64_t> digits(knobs_.size());
  int64_t rest = index;
  for (size_t i = 0; i < knobs_.size(); ++i) {
    digits[i] = rest % knobs_[i]->size();
    rest /= knobs_[i]->size();
  }
  return Config(this, std::move(digits), index);
}

absl::StatusOr<Config> ConfigSpace::FromKnobIndices(std::vector<int64_t> knob_indices) const {
  if (knob_indices.size() != knobs_.size()) {
    return absl::InvalidArgumentError(
        absl::StrCat("got ", knob_indices.size(), " knob indices for ", knobs_.size(), " knobs"));
  }
  int64_t index = 0;
  // Horner's rule from the most significant (last) knob down.
  for (size_t i = knobs_.size(); i-- > 0;) {
    const int64_t n = knobs_[i]->size();
    if (knob_indices[i] < 0 || knob_indices[i] >= n) {
      return absl::OutOfRangeError(absl::StrCat("value index ", knob_indices[i], " of knob '",
                                                knobs_[i]->name(), "' is outside [0, ", n, ")"));
    }
    index = index * n + knob_indices[i];
  }
  return Config(this, std::move(knob_indices), index);
}

bool ConfigSpace::IsValid(const Config& config) const { return CheckValid(config).ok(); }

absl::Status ConfigSpace::CheckValid(const Config& config) const {
  if (&config.space() != this) {
    return absl::InvalidArgumentError("config belongs to another space");
  }
  for (const Constraint& c : constraints_) {
    if (!c.allows(config)) {
      return absl::FailedPreconditionError(
          absl::StrCat("config ", config.index(), " breaks constraint '", c.name, "'"));
    }
  }
  return absl::OkStatus();
}

absl::StatusOr<int64_t> ConfigSpace::CountValid(int64_t max_scan) const {
  if (constraints_.empty()) return size_;
  if (size_ > max_scan) {
    return absl::ResourceExhaustedError(
        absl::StrCat("counting valid configs needs ", size_, " checks, more than ", max_scan));
  }
  int64_t count = 0;
  for (int64_t i = 0; i < size_; ++i) {
    if (IsValid(*Get(i))) ++count;
  }
  return count;
}

}  // namespace tunefarm::space
