#include "compiler/topi/gpu_common_knobs.h"

#include <algorithm>

#include "absl/strings/str_cat.h"
#include "compiler/space/split_knob.h"
#include "compiler/topi/loop_tiling.h"

namespace tunefarm::topi {
namespace {

std::vector<int64_t> Divisors(int64_t n) {
  std::vector<int64_t> d;
  for (int64_t i = 1; i <= n; ++i) {
    if (n % i == 0) d.push_back(i);
  }
  return d;
}

GpuAxisTile TileOf(const std::vector<int64_t>& f) {
  return f.size() == 4 ? GpuAxisTile{f[1], f[2], f[3]} : GpuAxisTile{};
}

}  // namespace

int64_t GpuKnobExtent(int64_t extent) { return extent < 8 ? extent : RoundUpTo(extent, 4); }

absl::Status DefineGpuAxisKnob(space::ConfigSpace& space, const std::string& name, int64_t extent,
                               bool vthreads) {
  const int64_t e = GpuKnobExtent(extent);
  space::SplitOptions options;
  options.extent = e;
  options.num_parts = 4;
  options.policy = space::SplitPolicy::kCandidates;
  for (int64_t v : Divisors(e)) {
    if (v > (vthreads ? kGpuMaxVthreads : 1)) break;
    for (int64_t t : Divisors(e / v)) {
      if (t > kGpuMaxThreadsPerBlock) break;
      for (int64_t i : Divisors(e / v / t)) {
        if (i > kGpuMaxInner) break;
        options.candidates.push_back({e / v / t / i, v, t, i});
      }
    }
  }
  return space.DefineSplit(name, options);
}

absl::Status DefineGpuReduceKnob(space::ConfigSpace& space, const std::string& name, int64_t extent,
                                 int64_t max_step) {
  const int64_t e = GpuKnobExtent(extent);
  space::SplitOptions options;
  options.extent = e;
  options.num_parts = 2;
  options.policy = space::SplitPolicy::kCandidates;
  for (int64_t s : Divisors(e)) {
    if (s > max_step && s != 1) break;
    options.candidates.push_back({e / s, s});
  }
  return space.DefineSplit(name, options);
}

namespace {

int64_t LargestDivisorAtMost(int64_t n, int64_t want) {
  int64_t best = 1;
  for (int64_t d : Divisors(n)) {
    if (d <= want) best = d;
  }
  return best;
}

}  // namespace

GpuAxisTile DefaultGpuAxisTile(int64_t extent, int64_t threads, int64_t inner) {
  const int64_t e = GpuKnobExtent(extent);
  GpuAxisTile t;
  t.threads = LargestDivisorAtMost(e, threads);
  t.inner = LargestDivisorAtMost(e / t.threads, std::min(inner, kGpuMaxInner));
  return t;
}

int64_t DefaultGpuStep(int64_t extent, int64_t want) {
  return LargestDivisorAtMost(GpuKnobExtent(extent), want);
}

absl::StatusOr<space::Config> GpuKnobPoint(const space::ConfigSpace& space,
                                           const std::vector<GpuKnobTarget>& targets,
                                           const std::string& op) {
  std::vector<int64_t> indices(space.num_knobs(), -1);
  for (const GpuKnobTarget& t : targets) {
    const int pos = space.KnobPosition(t.knob);
    if (pos < 0) {
      return absl::InvalidArgumentError(absl::StrCat(op, ": unknown knob '", t.knob, "'"));
    }
    const space::Knob& knob = space.knob(pos);
    space::KnobValue value = t.value;
    if (t.kind != GpuKnobTarget::Kind::kInt) {
      if (knob.kind() != space::KnobKind::kSplit) {
        return absl::InvalidArgumentError(
            absl::StrCat(op, ": knob '", t.knob, "' is not a split knob"));
      }
      const int64_t e = static_cast<const space::SplitKnob&>(knob).extent();
      const int64_t span = t.kind == GpuKnobTarget::Kind::kTile ? t.tile.Span() : t.value;
      value = t.kind == GpuKnobTarget::Kind::kTile
                  ? std::vector<int64_t>{e / span, t.tile.vthreads, t.tile.threads, t.tile.inner}
                  : std::vector<int64_t>{e / span, t.value};
      if (span <= 0 || e % span != 0) {
        return absl::InvalidArgumentError(absl::StrCat(op, ": knob '", t.knob, "' of extent ", e,
                                                       " has no value of span ", span));
      }
    }
    absl::StatusOr<int64_t> index = knob.IndexOf(value);
    if (!index.ok()) {
      return absl::InvalidArgumentError(
          absl::StrCat(op, ": knob '", t.knob, "': ", index.status().message()));
    }
    indices[pos] = *index;
  }
  for (int pos = 0; pos < space.num_knobs(); ++pos) {
    if (indices[pos] < 0) {
      return absl::InvalidArgumentError(
          absl::StrCat(op, ": no value for knob '", space.knob(pos).name(), "'"));
    }
  }
  absl::StatusOr<space::Config> config = space.FromKnobIndices(std::move(indices));
  if (!config.ok()) return config.status();
  if (absl::Status st = space.CheckValid(*config); !st.ok()) {
    return absl::FailedPreconditionError(absl::StrCat(op, ": ", st.message()));
  }
  return config;
}

absl::StatusOr<SplitView> SplitView::Of(const space::ConfigSpace& space, const std::string& name) {
  const int pos = space.KnobPosition(name);
  if (pos < 0) return absl::NotFoundError(absl::StrCat("unknown knob '", name, "'"));
  if (space.knob(pos).kind() != space::KnobKind::kSplit) {
    return absl::InvalidArgumentError(absl::StrCat("knob '", name, "' is not a split knob"));
  }
  const auto& knob = static_cast<const space::SplitKnob&>(space.knob(pos));
  auto factors = std::make_shared<std::vector<std::vector<int64_t>>>();
  for (int64_t i = 0; i < knob.size(); ++i) factors->push_back(knob.FactorsAt(i));
  SplitView view;
  view.position_ = pos;
  view.factors_ = std::move(factors);
  return view;
}

const std::vector<int64_t>& SplitView::Factors(const space::Config& config) const {
  return (*factors_)[config.knob_indices()[position_]];
}

GpuAxisTile SplitView::Tile(const space::Config& config) const { return TileOf(Factors(config)); }

absl::StatusOr<GpuAxisTile> ReadGpuAxisKnob(const space::Config& config, const std::string& name) {
  absl::StatusOr<std::vector<int64_t>> f = config.SplitFactors(name);
  if (!f.ok()) return f.status();
  if (f->size() != 4) {
    return absl::InvalidArgumentError(absl::StrCat("knob '", name, "' is not a 4-part split"));
  }
  return TileOf(*f);
}

absl::StatusOr<int64_t> ReadGpuReduceKnob(const space::Config& config, const std::string& name) {
  absl::StatusOr<std::vector<int64_t>> f = config.SplitFactors(name);
  if (!f.ok()) return f.status();
  if (f->size() != 2) {
    return absl::InvalidArgumentError(absl::StrCat("knob '", name, "' is not a 2-part split"));
  }
  return f->back();
}

}  // namespace tunefarm::topi
