#include "compiler/topi/common_knobs.h"

#include <algorithm>
#include <cstdlib>
#include <functional>
#include <set>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "compiler/space/choice_knob.h"

namespace tunefarm::topi {

std::vector<int64_t> KnobValues(std::vector<int64_t> values, int64_t always,
                                const std::function<bool(int64_t)>& keep) {
  std::set<int64_t> kept = {always};
  for (int64_t v : values) {
    if (keep(v)) kept.insert(v);
  }
  return std::vector<int64_t>(kept.begin(), kept.end());
}

std::vector<int64_t> VectorLaneChoices(const CpuInfo& cpu) {
  const int64_t lanes = cpu.Lanes(4);
  return KnobValues({lanes / 2, lanes / 4}, lanes, [](int64_t v) { return v >= 4; });
}

absl::Status DefineIntKnob(space::ConfigSpace& space, const std::string& name,
                           const std::vector<int64_t>& values) {
  std::vector<space::ChoiceValue> choices(values.begin(), values.end());
  return space.DefineChoice(name, std::move(choices));
}

absl::Status DefineFlagKnob(space::ConfigSpace& space, const std::string& name, bool both,
                            bool value) {
  if (both) return DefineIntKnob(space, name, {0, 1});
  return DefineIntKnob(space, name, {value ? 1 : 0});
}

namespace {

// The index of the value of `knob` nearest to `want`.
absl::StatusOr<int64_t> NearestIndex(const space::ChoiceKnob& knob, const space::ChoiceValue& want,
                                     const std::string& op) {
  int64_t best = -1;
  int64_t best_distance = 0;
  for (int64_t i = 0; i < knob.size(); ++i) {
    const space::ChoiceValue& v = knob.ChoiceAt(i);
    if (v.index() != want.index()) continue;
    if (const auto* name = std::get_if<std::string>(&want)) {
      if (std::get<std::string>(v) == *name) return i;
      continue;
    }
    const int64_t d = std::llabs(std::get<int64_t>(v) - std::get<int64_t>(want));
    if (best < 0 || d < best_distance) {
      best = i;
      best_distance = d;
    }
  }
  if (best < 0) {
    const space::KnobValue value =
        std::visit([](const auto& x) { return space::KnobValue(x); }, want);
    return absl::InvalidArgumentError(absl::StrCat(
        op, ": knob '", knob.name(), "' has no value like ", space::KnobValueToString(value)));
  }
  return best;
}

}  // namespace

absl::StatusOr<space::Config> NearestConfig(const space::ConfigSpace& space,
                                            const std::vector<KnobTarget>& targets,
                                            const std::string& op) {
  std::vector<int64_t> indices(space.num_knobs(), -1);
  for (const auto& [name, want] : targets) {
    const int pos = space.KnobPosition(name);
    if (pos < 0) {
      return absl::InvalidArgumentError(absl::StrCat(op, ": the space has no knob '", name, "'"));
    }
    if (space.knob(pos).kind() != space::KnobKind::kChoice) {
      return absl::InvalidArgumentError(
          absl::StrCat(op, ": knob '", name, "' is not a choice knob"));
    }
    absl::StatusOr<int64_t> index =
        NearestIndex(static_cast<const space::ChoiceKnob&>(space.knob(pos)), want, op);
    if (!index.ok()) return index.status();
    indices[pos] = *index;
  }
  for (int i = 0; i < space.num_knobs(); ++i) {
    if (indices[i] < 0) {
      return absl::InvalidArgumentError(
          absl::StrCat(op, ": no value given for knob '", space.knob(i).name(), "'"));
    }
  }
  absl::StatusOr<space::Config> config = space.FromKnobIndices(std::move(indices));
  if (!config.ok()) return config.status();
  if (absl::Status st = space.CheckValid(*config); !st.ok()) {
    return absl::FailedPreconditionError(
        absl::StrCat(op, ": the nearest point of the space is invalid: ", st.message()));
  }
  return config;
}

absl::StatusOr<KnobView> KnobView::Of(const space::ConfigSpace& space, const std::string& name) {
  const int pos = space.KnobPosition(name);
  if (pos < 0) return absl::NotFoundError(absl::StrCat("unknown knob '", name, "'"));
  if (space.knob(pos).kind() != space::KnobKind::kChoice) {
    return absl::InvalidArgumentError(absl::StrCat("knob '", name, "' is not a choice knob"));
  }
  const auto& knob = static_cast<const space::ChoiceKnob&>(space.knob(pos));
  KnobView view;
  view.position_ = pos;
  for (int64_t i = 0; i < knob.size(); ++i) view.values_.push_back(knob.ChoiceAt(i));
  return view;
}

int64_t KnobView::Int(const space::Config& config) const {
  const auto* v = std::get_if<int64_t>(&values_[config.knob_indices()[position_]]);
  return v == nullptr ? 0 : *v;
}

bool KnobView::Is(const space::Config& config, const std::string& name) const {
  const auto* v = std::get_if<std::string>(&values_[config.knob_indices()[position_]]);
  return v != nullptr && *v == name;
}

absl::Status ViewKnobs(const space::ConfigSpace& space,
                       const std::vector<std::pair<std::string, KnobView*>>& views) {
  for (const auto& [name, view] : views) {
    absl::StatusOr<KnobView> v = KnobView::Of(space, name);
    if (!v.ok()) return v.status();
    *view = *std::move(v);
  }
  return absl::OkStatus();
}

int64_t KnobReader::Int(const std::string& knob) {
  absl::StatusOr<int64_t> v = config_.ChoiceInt(knob);
  if (!v.ok()) {
    if (status_.ok()) status_ = v.status();
    return 0;
  }
  return *v;
}

std::string KnobReader::Name(const std::string& knob) {
  absl::StatusOr<std::string> v = config_.ChoiceString(knob);
  if (!v.ok()) {
    if (status_.ok()) status_ = v.status();
    return "";
  }
  return *v;
}

}  // namespace tunefarm::topi
