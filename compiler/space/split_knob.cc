#include "compiler/space/split_knob.h"

#include <string_view>
#include <utility>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"

namespace tunefarm::space {
namespace {

constexpr int kMaxParts = 8;

// Trial division up to sqrt(n): at most 65536 steps for n <= kMaxSplitExtent.
std::vector<int64_t> Divisors(int64_t n) {
  std::vector<int64_t> small;
  std::vector<int64_t> large;
  for (int64_t d = 1; d <= n / d; ++d) {
    if (n % d != 0) continue;
    small.push_back(d);
    if (d != n / d) large.push_back(n / d);
  }
  small.insert(small.end(), large.rbegin(), large.rend());
  return small;
}

// Appends every ordered factorization of `rest` into `parts_left` parts after `prefix`, in
// lexicographic order, so indices are stable across runs and platforms. `divisors` are those of
// the whole extent (ascending), which `rest` divides. False once `out` holds kMaxSplitEntries.
bool Factorize(int64_t rest, int parts_left, const std::vector<int64_t>& divisors,
               std::vector<int64_t>& prefix, std::vector<std::vector<int64_t>>& out) {
  if (parts_left == 1) {
    if (static_cast<int64_t>(out.size()) >= kMaxSplitEntries) return false;
    prefix.push_back(rest);
    out.push_back(prefix);
    prefix.pop_back();
    return true;
  }
  for (int64_t d : divisors) {
    if (d > rest) break;
    if (rest % d != 0) continue;
    prefix.push_back(d);
    const bool room = Factorize(rest / d, parts_left - 1, divisors, prefix, out);
    prefix.pop_back();
    if (!room) return false;
  }
  return true;
}

bool IsPowerOfTwo(int64_t v) { return v > 0 && (v & (v - 1)) == 0; }

absl::Status CheckCandidate(const std::vector<int64_t>& c, int64_t extent, int num_parts) {
  if (static_cast<int>(c.size()) != num_parts) {
    return absl::InvalidArgumentError(absl::StrCat("candidate ", KnobValueToString(c), " has ",
                                                   c.size(), " parts, want ", num_parts));
  }
  int64_t product = 1;
  for (int64_t f : c) {
    if (f <= 0 || product > extent / f) {
      return absl::InvalidArgumentError(
          absl::StrCat("candidate ", KnobValueToString(c), " does not multiply to ", extent));
    }
    product *= f;
  }
  if (product != extent) {
    return absl::InvalidArgumentError(
        absl::StrCat("candidate ", KnobValueToString(c), " does not multiply to ", extent));
  }
  return absl::OkStatus();
}

}  // namespace

absl::StatusOr<std::unique_ptr<SplitKnob>> SplitKnob::Make(std::string name,
                                                           const SplitOptions& options) {
  auto error = [&](absl::string_view why) {
    return absl::InvalidArgumentError(absl::StrCat("split knob '", name, "': ", why));
  };
  if (options.extent <= 0)
    return error(absl::StrCat("extent ", options.extent, " is not positive"));
  if (options.num_parts < 1 || options.num_parts > kMaxParts) {
    return error(absl::StrCat("num_parts ", options.num_parts, " is outside [1, ", kMaxParts, "]"));
  }
  std::vector<std::vector<int64_t>> all;
  if (options.policy == SplitPolicy::kCandidates) {
    for (const auto& c : options.candidates) {
      if (absl::Status s = CheckCandidate(c, options.extent, options.num_parts); !s.ok()) {
        return error(s.message());
      }
      for (const auto& seen : all) {
        if (seen == c) return error(absl::StrCat("candidate ", KnobValueToString(c), " repeats"));
      }
      all.push_back(c);
    }
  } else {
    // Enumerating costs sqrt(extent) and then one entry per factor list: both bounded first.
    if (options.extent > kMaxSplitExtent) {
      return error(absl::StrCat("extent ", options.extent, " is above ", kMaxSplitExtent,
                                ", the largest a split knob enumerates; give candidate factor "
                                "lists (policy \"candidate\") or split a smaller loop"));
    }
    std::vector<int64_t> prefix;
    if (!Factorize(options.extent, options.num_parts, Divisors(options.extent), prefix, all)) {
      return error(absl::StrCat("more than ", kMaxSplitEntries, " ways to split extent ",
                                options.extent, " into ", options.num_parts,
                                " parts; use fewer parts or give candidate factor lists"));
    }
  }
  std::vector<std::vector<int64_t>> kept;
  for (auto& f : all) {
    if (options.policy == SplitPolicy::kPowerOfTwo) {
      bool inner_pow2 = true;
      for (size_t i = 1; i < f.size(); ++i) inner_pow2 = inner_pow2 && IsPowerOfTwo(f[i]);
      if (!inner_pow2) continue;
    }
    if (options.max_innermost > 0 && f.back() > options.max_innermost) continue;
    kept.push_back(std::move(f));
  }
  if (kept.empty()) return error("no factor list satisfies the options");
  return std::unique_ptr<SplitKnob>(
      new SplitKnob(std::move(name), options.extent, options.num_parts, std::move(kept)));
}

SplitKnob::SplitKnob(std::string name, int64_t extent, int num_parts,
                     std::vector<std::vector<int64_t>> factors)
    : Knob(std::move(name)), extent_(extent), num_parts_(num_parts), factors_(std::move(factors)) {
  for (int64_t i = 0; i < size(); ++i) index_of_.emplace(factors_[i], i);
}

absl::StatusOr<int64_t> SplitKnob::IndexOf(const KnobValue& value) const {
  const auto* list = std::get_if<std::vector<int64_t>>(&value);
  if (list == nullptr) return OutOfDomain(value);
  auto it = index_of_.find(*list);
  if (it == index_of_.end()) return OutOfDomain(value);
  return it->second;
}

}  // namespace tunefarm::space
