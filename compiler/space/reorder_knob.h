// A reorder knob: orders of N loop axes, as permutations of 0..N-1 (outermost first). Either every
// permutation (computed on demand from its rank, nothing stored) or an explicit candidate list.
#ifndef TUNEFARM_COMPILER_SPACE_REORDER_KNOB_H_
#define TUNEFARM_COMPILER_SPACE_REORDER_KNOB_H_

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "compiler/space/knob.h"

namespace tunefarm::space {

class ReorderKnob final : public Knob {
 public:
  // Every permutation of `num_axes` axes, 1 <= num_axes <= 12 (12! keeps indices small).
  static absl::StatusOr<std::unique_ptr<ReorderKnob>> AllPermutations(std::string name,
                                                                      int num_axes);
  // Exactly `candidates`; each must be a permutation of 0..N-1 for one N, with no repeats.
  static absl::StatusOr<std::unique_ptr<ReorderKnob>> Candidates(
      std::string name, std::vector<std::vector<int64_t>> candidates);

  KnobKind kind() const override { return KnobKind::kReorder; }
  int64_t size() const override;
  KnobValue ValueAt(int64_t index) const override { return PermutationAt(index); }
  absl::StatusOr<int64_t> IndexOf(const KnobValue& value) const override;

  int num_axes() const { return num_axes_; }
  std::vector<int64_t> PermutationAt(int64_t index) const;

 private:
  ReorderKnob(std::string name, int num_axes, std::vector<std::vector<int64_t>> candidates)
      : Knob(std::move(name)), num_axes_(num_axes), candidates_(std::move(candidates)) {}

  int num_axes_;
  std::vector<std::vector<int64_t>> candidates_;  // empty means "all permutations"
};

}  // namespace tunefarm::space

#endif  // TUNEFARM_COMPILER_SPACE_REORDER_KNOB_H_
