#include "compiler/space/reorder_knob.h"

#include <algorithm>
#include <utility>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"

namespace tunefarm::space {
namespace {

constexpr int kMaxAxes = 12;

int64_t Factorial(int n) {
  int64_t f = 1;
  for (int i = 2; i <= n; ++i) f *= i;
  return f;
}

bool IsPermutation(const std::vector<int64_t>& p) {
  std::vector<bool> seen(p.size(), false);
  for (int64_t v : p) {
    if (v < 0 || v >= static_cast<int64_t>(p.size()) || seen[v]) return false;
    seen[v] = true;
  }
  return true;
}

}  // namespace

absl::StatusOr<std::unique_ptr<ReorderKnob>> ReorderKnob::AllPermutations(std::string name,
                                                                          int num_axes) {
  if (num_axes < 1 || num_axes > kMaxAxes) {
    return absl::InvalidArgumentError(absl::StrCat("reorder knob '", name, "': num_axes ", num_axes,
                                                   " is outside [1, ", kMaxAxes, "]"));
  }
  return std::unique_ptr<ReorderKnob>(new ReorderKnob(std::move(name), num_axes, {}));
}

absl::StatusOr<std::unique_ptr<ReorderKnob>> ReorderKnob::Candidates(
    std::string name, std::vector<std::vector<int64_t>> candidates) {
  auto error = [&](absl::string_view why) {
    return absl::InvalidArgumentError(absl::StrCat("reorder knob '", name, "': ", why));
  };
  if (candidates.empty()) return error("no candidates");
  const size_t n = candidates.front().size();
  for (size_t i = 0; i < candidates.size(); ++i) {
    const auto& c = candidates[i];
    if (c.empty() || c.size() != n || !IsPermutation(c)) {
      return error(absl::StrCat(KnobValueToString(c), " is not a permutation of 0..", n - 1));
    }
    if (std::find(candidates.begin(), candidates.begin() + i, c) != candidates.begin() + i) {
      return error(absl::StrCat("candidate ", KnobValueToString(c), " repeats"));
    }
  }
  return std::unique_ptr<ReorderKnob>(
      new ReorderKnob(std::move(name), static_cast<int>(n), std::move(candidates)));
}

int64_t ReorderKnob::size() const {
  return candidates_.empty() ? Factorial(num_axes_) : static_cast<int64_t>(candidates_.size());
}

// Decodes the rank in the factorial number system (Lehmer code): digit i picks among the axes
// not used yet, so rank 0 is the identity and ranks follow lexicographic order.
std::vector<int64_t> ReorderKnob::PermutationAt(int64_t index) const {
  if (!candidates_.empty()) return candidates_[index];
  std::vector<int64_t> unused(num_axes_);
  for (int i = 0; i < num_axes_; ++i) unused[i] = i;
  std::vector<int64_t> perm;
  perm.reserve(num_axes_);
  for (int i = num_axes_; i >= 1; --i) {
    const int64_t block = Factorial(i - 1);
    const int64_t digit = index / block;
    index %= block;
    perm.push_back(unused[digit]);
    unused.erase(unused.begin() + digit);
  }
  return perm;
}

absl::StatusOr<int64_t> ReorderKnob::IndexOf(const KnobValue& value) const {
  const auto* perm = std::get_if<std::vector<int64_t>>(&value);
  if (perm == nullptr || static_cast<int>(perm->size()) != num_axes_ || !IsPermutation(*perm)) {
    return OutOfDomain(value);
  }
  if (!candidates_.empty()) {
    auto it = std::find(candidates_.begin(), candidates_.end(), *perm);
    if (it == candidates_.end()) return OutOfDomain(value);
    return it - candidates_.begin();
  }
  int64_t rank = 0;
  for (int i = 0; i < num_axes_; ++i) {
    int64_t smaller_after = 0;
    for (int j = i + 1; j < num_axes_; ++j) smaller_after += (*perm)[j] < (*perm)[i] ? 1 : 0;
    rank += smaller_after * Factorial(num_axes_ - 1 - i);
  }
  return rank;
}

}  // namespace tunefarm::space
