#include "tuner/search/knob_features.h"

#include <cmath>
#include <variant>

#include "compiler/space/choice_knob.h"
#include "compiler/space/reorder_knob.h"
#include "compiler/space/split_knob.h"
#include "tuner/search/loop_features.h"

namespace tunefarm::tuner {
namespace {

int KnobLength(const space::Knob& knob) {
  switch (knob.kind()) {
    case space::KnobKind::kSplit:
      return static_cast<const space::SplitKnob&>(knob).num_parts();
    case space::KnobKind::kReorder:
      return static_cast<const space::ReorderKnob&>(knob).num_axes();
    case space::KnobKind::kAnnotate:
      return 1;
    case space::KnobKind::kChoice:
      return 2;
  }
  return 0;
}

}  // namespace

int KnobFeatureLength(const space::ConfigSpace& space) {
  int n = 0;
  for (int k = 0; k < space.num_knobs(); ++k) n += KnobLength(space.knob(k));
  return n;
}

void AppendKnobFeatures(const space::Config& config, std::vector<float>& out) {
  const space::ConfigSpace& space = config.space();
  for (int k = 0; k < space.num_knobs(); ++k) {
    const space::Knob& knob = space.knob(k);
    const int64_t index = config.knob_indices()[k];
    switch (knob.kind()) {
      case space::KnobKind::kSplit:
        for (int64_t f : static_cast<const space::SplitKnob&>(knob).FactorsAt(index)) {
          out.push_back(static_cast<float>(std::log2(static_cast<double>(f))));
        }
        break;
      case space::KnobKind::kReorder:
        for (int64_t axis : static_cast<const space::ReorderKnob&>(knob).PermutationAt(index)) {
          out.push_back(static_cast<float>(axis));
        }
        break;
      case space::KnobKind::kAnnotate:
        out.push_back(static_cast<float>(index));
        break;
      case space::KnobKind::kChoice: {
        out.push_back(static_cast<float>(index));
        const space::ChoiceValue& v = static_cast<const space::ChoiceKnob&>(knob).ChoiceAt(index);
        const int64_t* i = std::get_if<int64_t>(&v);
        out.push_back(i != nullptr ? LogScale(static_cast<double>(*i)) : 0.0f);
        break;
      }
    }
  }
}

std::vector<float> KnobFeatureVector(const space::Config& config) {
  std::vector<float> out;
  out.reserve(static_cast<size_t>(KnobFeatureLength(config.space())));
  AppendKnobFeatures(config, out);
  return out;
}

}  // namespace tunefarm::tuner
