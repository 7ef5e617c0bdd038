// A split knob: ways to cut one loop of a given extent into N nested loops whose extents multiply
// back to the original. Parts are listed outermost first, so factors.back() is the innermost.
#ifndef TUNEFARM_COMPILER_SPACE_SPLIT_KNOB_H_
#define TUNEFARM_COMPILER_SPACE_SPLIT_KNOB_H_

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "compiler/space/knob.h"

namespace tunefarm::space {

enum class SplitPolicy {
  kAll,         // every ordered factorization of the extent into num_parts exact divisors
  kPowerOfTwo,  // as kAll, but every part except the outermost is a power of two
  kCandidates,  // exactly the factor lists in `candidates`, validated against the extent
};

struct SplitOptions {
  int64_t extent = 1;
  int num_parts = 2;
  SplitPolicy policy = SplitPolicy::kAll;
  std::vector<std::vector<int64_t>> candidates = {};  // used by kCandidates only
  // When > 0, drops factor lists whose innermost part exceeds it (keeps vector/unroll loops short).
  int64_t max_innermost = 0;
};

// Bounds on the work of enumerating a knob (policies kAll and kPowerOfTwo): the extent's divisors
// are found by trial division (sqrt(extent) steps, 65536 at this bound), and each factor list is
// kept in memory.
inline constexpr int64_t kMaxSplitExtent = int64_t{1} << 32;
inline constexpr int64_t kMaxSplitEntries = int64_t{1} << 20;

class SplitKnob final : public Knob {
 public:
  // InvalidArgument for a non-positive extent, num_parts outside [1, 8], a malformed or repeated
  // candidate, options that leave no factor list at all, or (enumerating) an extent above
  // kMaxSplitExtent or more than kMaxSplitEntries factor lists before the options filter them.
  static absl::StatusOr<std::unique_ptr<SplitKnob>> Make(std::string name,
                                                         const SplitOptions& options);

  KnobKind kind() const override { return KnobKind::kSplit; }
  int64_t size() const override { return static_cast<int64_t>(factors_.size()); }
  KnobValue ValueAt(int64_t index) const override { return factors_[index]; }
  absl::StatusOr<int64_t> IndexOf(const KnobValue& value) const override;

  int64_t extent() const { return extent_; }
  int num_parts() const { return num_parts_; }
  const std::vector<int64_t>& FactorsAt(int64_t index) const { return factors_[index]; }

 private:
  SplitKnob(std::string name, int64_t extent, int num_parts,
            std::vector<std::vector<int64_t>> factors);

  int64_t extent_;
  int num_parts_;
  std::vector<std::vector<int64_t>> factors_;
  std::map<std::vector<int64_t>, int64_t> index_of_;
};

}  // namespace tunefarm::space

#endif  // TUNEFARM_COMPILER_SPACE_SPLIT_KNOB_H_
