#include "compiler/script/tuning.h"

#include <algorithm>
#include <utility>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "compiler/space/split_knob.h"

namespace tunefarm::script {
namespace {

// Long vector/unroll loops rarely pay off; 16 float lanes are two AVX2 registers.
constexpr int64_t kFallbackInnermost = 16;

// Values compared one by one when checking that a knob kept its domain; beyond this, the first
// and last ones only (an all-permutations reorder knob of 12 axes has 479001600 values).
constexpr int64_t kCompareAll = 1 << 16;
constexpr int64_t kCompareEnds = 1024;

bool SameDomain(const space::Knob& a, const space::Knob& b) {
  if (a.kind() != b.kind() || a.size() != b.size()) return false;
  const int64_t n = a.size();
  auto same_at = [&](int64_t i) { return a.ValueAt(i) == b.ValueAt(i); };
  if (n <= kCompareAll) {
    for (int64_t i = 0; i < n; ++i) {
      if (!same_at(i)) return false;
    }
    return true;
  }
  for (int64_t i = 0; i < kCompareEnds; ++i) {
    if (!same_at(i) || !same_at(n - 1 - i)) return false;
  }
  return true;
}

std::string DomainText(const space::Knob& knob) {
  std::string text = absl::StrCat(space::KnobKindName(knob.kind()), " knob of ", knob.size(),
                                  knob.size() == 1 ? " value" : " values");
  if (knob.size() > 0) {
    absl::StrAppend(&text, ", first ", space::KnobValueToString(knob.ValueAt(0)));
  }
  return text;
}

}  // namespace

int64_t FallbackIndex(const space::Knob& knob) {
  if (knob.kind() != space::KnobKind::kSplit) return 0;
  const auto& split = static_cast<const space::SplitKnob&>(knob);
  int64_t best = 0;
  auto better = [](const std::vector<int64_t>& a, const std::vector<int64_t>& b) {
    const int64_t ia = a.back(), ib = b.back();
    const bool fits_a = ia <= kFallbackInnermost, fits_b = ib <= kFallbackInnermost;
    if (fits_a != fits_b) return fits_a;
    if (ia != ib) return fits_a ? ia > ib : ia < ib;
    return a.front() > b.front();
  };
  for (int64_t i = 1; i < split.size(); ++i) {
    if (better(split.FactorsAt(i), split.FactorsAt(best))) best = i;
  }
  return best;
}

Tuning::Tuning(TuningMode mode, space::ConfigSpace* space, const space::Config* config)
    : mode_(mode), space_(space), config_(config) {}

Tuning Tuning::Fallback() {
  auto own = std::make_shared<space::ConfigSpace>();
  Tuning t(TuningMode::kFallback, own.get(), nullptr);
  t.own_space_ = std::move(own);
  return t;
}

Tuning Tuning::Define(space::ConfigSpace* space) {
  return Tuning(TuningMode::kDefine, space, nullptr);
}

Tuning Tuning::Apply(const space::Config* config) {
  return Tuning(TuningMode::kApply, nullptr, config);
}

absl::Status Tuning::Define(std::unique_ptr<space::Knob> knob, int num_axes) {
  const std::string name = knob->name();
  if (entries_.count(name)) {
    return absl::InvalidArgumentError(absl::StrCat("knob '", name, "' is defined twice"));
  }
  Entry entry;
  entry.num_axes = num_axes;
  if (mode_ == TuningMode::kApply) {
    const space::ConfigSpace& space = config_->space();
    const int pos = space.KnobPosition(name);
    if (pos < 0) {
      std::vector<std::string> known;
      for (int i = 0; i < space.num_knobs(); ++i) known.push_back(space.knob(i).name());
      return absl::InvalidArgumentError(
          absl::StrCat("knob '", name, "' is not in the config's space (its knobs: ",
                       known.empty() ? "none" : absl::StrJoin(known, ", "), ")"));
    }
    const space::Knob& applied = space.knob(pos);
    if (!SameDomain(applied, *knob)) {
      return absl::InvalidArgumentError(
          absl::StrCat("knob '", name, "' is defined as a ", DomainText(*knob),
                       " but the config's space has a ", DomainText(applied)));
    }
    entry.knob = &applied;
    entry.index = config_->knob_indices()[pos];
  } else {
    const int64_t fallback = FallbackIndex(*knob);
    if (absl::Status st = space_->AddKnob(std::move(knob)); !st.ok()) return st;
    entry.knob = &space_->knob(space_->KnobPosition(name));
    entry.index = fallback;
  }
  entries_.emplace(name, entry);
  names_.push_back(name);
  return absl::OkStatus();
}

const Tuning::Entry* Tuning::Find(const std::string& name) const {
  auto it = entries_.find(name);
  return it == entries_.end() ? nullptr : &it->second;
}

std::vector<int64_t> Tuning::KnobIndices() const {
  std::vector<int64_t> indices;
  for (const std::string& name : names_) indices.push_back(entries_.at(name).index);
  return indices;
}

absl::Status Tuning::CheckAllApplied() const {
  if (mode_ != TuningMode::kApply) return absl::OkStatus();
  const space::ConfigSpace& space = config_->space();
  for (int i = 0; i < space.num_knobs(); ++i) {
    if (!entries_.count(space.knob(i).name())) {
      return absl::InvalidArgumentError(absl::StrCat("the config's knob '", space.knob(i).name(),
                                                     "' is not defined by the script"));
    }
  }
  return absl::OkStatus();
}

}  // namespace tunefarm::script
