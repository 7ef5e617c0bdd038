// The state behind a script's `cfg`: the knobs it defines and the value each one takes in this
// run. One script serves three ways: declaring its knobs into a config space (define), applying
// one config of that space (apply), and a plain run that uses each knob's fallback value.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "compiler/space/config.h"
#include "compiler/space/config_space.h"
#include "compiler/space/knob.h"

namespace tunefarm::script {

enum class TuningMode {
  kFallback,  // knobs go to a space of this run's own; each takes its fallback value
  kDefine,    // knobs are declared into a caller's (empty) space; each takes its fallback value
  kApply,     // knobs must match the given config's space; each takes the config's value
};

// The value a knob takes when no config is given: for a split knob (other than a candidate list)
// the factors whose innermost part is the largest one not above 16 (the smallest innermost part
// when all are above 16), the rest of the extent going to the outermost part; for every other
// knob, its first value. Documented in docs/te-script.md.
int64_t FallbackIndex(const space::Knob& knob);

class Tuning {
 public:
  // A run's knob state. `space` is required for kDefine, `config` for kApply; both outlive this.
  static Tuning Fallback();
  static Tuning Define(space::ConfigSpace* space);
  static Tuning Apply(const space::Config* config);

  TuningMode mode() const { return mode_; }
  // `cfg.is_fallback`: no config is being applied.
  bool is_fallback() const { return mode_ != TuningMode::kApply; }

  // One knob the script defined, with the value index it takes in this run.
  struct Entry {
    const space::Knob* knob = nullptr;
    int64_t index = 0;
    int num_axes = 0;  // annotate knobs: how many axes apply() takes
  };

  // Declares `knob`. InvalidArgument (without position; the caller adds it) for a name defined
  // before in this run, and in apply mode for a knob the config's space lacks or has with
  // another domain.
  absl::Status Define(std::unique_ptr<space::Knob> knob, int num_axes = 0);
  // The knob named `name`, or null when the script has not defined it (yet).
  const Entry* Find(const std::string& name) const;
  // Names of the knobs defined so far, in definition order.
  const std::vector<std::string>& names() const { return names_; }
  // The value index of every defined knob, in definition order.
  std::vector<int64_t> KnobIndices() const;
  // Apply mode: OK when every knob of the config's space was defined by the script, else
  // InvalidArgument naming the first one missing.
  absl::Status CheckAllApplied() const;

 private:
  Tuning(TuningMode mode, space::ConfigSpace* space, const space::Config* config);

  TuningMode mode_;
  std::shared_ptr<space::ConfigSpace> own_space_;  // kFallback; shared so Tuning stays movable
  space::ConfigSpace* space_;                      // where knobs are declared (not in kApply)
  const space::Config* config_;                    // kApply
  std::map<std::string, Entry> entries_;
  std::vector<std::string> names_;
};

}  // namespace tunefarm::script
