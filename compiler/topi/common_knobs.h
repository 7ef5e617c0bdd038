// Helpers the operator families' knob files share: integer and named choice knobs, the "nearest
// point" mapping of a schedule config into a space, and the vector-register budget constraint.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "compiler/space/config.h"
#include "compiler/space/config_space.h"
#include "compiler/topi/cpu_info.h"

namespace tunefarm::topi {

// The sorted, de-duplicated values of `values` that pass `keep`, plus `always` (the library
// default, which every space must contain even where `keep` would drop it).
std::vector<int64_t> KnobValues(std::vector<int64_t> values, int64_t always,
                                const std::function<bool(int64_t)>& keep);

// The float32 lanes of `cpu`'s vectors, and a half and a quarter of them (at least 4), ascending:
// a narrower vector may divide an output row where a full one leaves a scalar tail.
std::vector<int64_t> VectorLaneChoices(const CpuInfo& cpu);

// Defines a choice knob of integers (sorted ascending, as KnobValues returns them).
absl::Status DefineIntKnob(space::ConfigSpace& space, const std::string& name,
                           const std::vector<int64_t>& values);
// A 0/1 knob, or just {value} when the other value cannot matter (`both` false).
absl::Status DefineFlagKnob(space::ConfigSpace& space, const std::string& name, bool both,
                            bool value);

// One knob's wanted value when mapping a schedule config into a space: an integer (the nearest
// value of the knob is taken, ties to the smaller one) or a name (exactly).
using KnobTarget = std::pair<std::string, space::ChoiceValue>;

// The config whose every knob is nearest to `targets` (each knob of the space must be named
// once). Errors: a missing or unknown knob (InvalidArgument), a name the knob lacks
// (InvalidArgument), or a nearest point that breaks a constraint (FailedPrecondition naming it).
absl::StatusOr<space::Config> NearestConfig(const space::ConfigSpace& space,
                                            const std::vector<KnobTarget>& targets,
                                            const std::string& op);

// Accumulators (acc_vectors), plus the operand vectors one reduction step loads (load_vectors),
// plus one broadcast must fit in the CPU's vector registers: beyond that LLVM spills the tile.
inline bool FitsRegisters(int64_t acc_vectors, int64_t load_vectors, int registers) {
  return acc_vectors + load_vectors + 1 <= registers;
}

// A choice knob's value read by position, for constraints: the space calls them for every
// index it scans, so they must not look knobs up by name. Int() is for integer knobs; Is() tests
// a named value of a string knob.
class KnobView {
 public:
  // NotFound for an unknown knob, InvalidArgument for one that is not a choice knob.
  static absl::StatusOr<KnobView> Of(const space::ConfigSpace& space, const std::string& name);
  int64_t Int(const space::Config& config) const;
  bool Is(const space::Config& config, const std::string& name) const;

 private:
  int position_ = 0;
  std::vector<space::ChoiceValue> values_;
};

// Fills each view of `views` from the knob it names; the first error.
absl::Status ViewKnobs(const space::ConfigSpace& space,
                       const std::vector<std::pair<std::string, KnobView*>>& views);

// Reads choice knobs by name, keeping the first error, so a ConfigFromKnobs reads every field
// and checks once: `KnobReader r(config); c.reg_m = r.Int("reg_m"); ... if (!r.ok()) ...`.
class KnobReader {
 public:
  explicit KnobReader(const space::Config& config) : config_(config) {}
  int64_t Int(const std::string& knob);
  bool Flag(const std::string& knob) { return Int(knob) != 0; }
  std::string Name(const std::string& knob);
  const absl::Status& status() const { return status_; }
  bool ok() const { return status_.ok(); }

 private:
  const space::Config& config_;
  absl::Status status_;
};

}  // namespace tunefarm::topi
