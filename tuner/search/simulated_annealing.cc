#include "tuner/search/simulated_annealing.h"

#include <algorithm>
#include <cmath>
#include <queue>
#include <unordered_map>
#include <unordered_set>

#include "compiler/space/config_sampler.h"
#include "tuner/search/uniform01.h"

namespace tunefarm::tuner {
namespace {

class Annealer {
 public:
  Annealer(const space::ConfigSpace& space, const BatchScorer& score,
           const std::function<bool(int64_t)>& excluded, std::mt19937_64& rng,
           const AnnealingOptions& options)
      : space_(space), score_(score), excluded_(excluded), rng_(rng), options_(options) {
    for (int k = 0; k < space.num_knobs(); ++k) {
      if (space.knob(k).size() > 1) mutable_knobs_.push_back(k);
    }
  }

  absl::StatusOr<std::vector<std::pair<space::Config, double>>> Run(
      std::vector<space::Config> chains, AnnealingStats* stats);

 private:
  // Scores of `configs`, predicting only those not scored before.
  absl::StatusOr<std::vector<double>> Score(const std::vector<space::Config>& configs);
  space::Config Neighbor(const space::Config& c);
  // Offers a scored config to the kept set; true when it entered it.
  bool Offer(const space::Config& c, double s);

  const space::ConfigSpace& space_;
  const BatchScorer& score_;
  const std::function<bool(int64_t)>& excluded_;
  std::mt19937_64& rng_;
  const AnnealingOptions& options_;
  std::vector<int> mutable_knobs_;
  std::unordered_map<int64_t, double> cache_;
  // The kept candidates: a min-heap on score (ties: larger index out first, for determinism).
  using Entry = std::pair<double, int64_t>;
  std::priority_queue<Entry, std::vector<Entry>, std::greater<Entry>> heap_;
  std::unordered_set<int64_t> offered_;
};

absl::StatusOr<std::vector<double>> Annealer::Score(const std::vector<space::Config>& configs) {
  std::vector<space::Config> fresh;
  std::unordered_set<int64_t> fresh_set;
  for (const space::Config& c : configs) {
    if (cache_.count(c.index()) == 0 && fresh_set.insert(c.index()).second) fresh.push_back(c);
  }
  if (!fresh.empty()) {
    absl::StatusOr<std::vector<double>> s = score_(fresh);
    if (!s.ok()) return s.status();
    if (s->size() != fresh.size()) return absl::InternalError("annealing: scorer lost rows");
    for (size_t i = 0; i < fresh.size(); ++i) cache_[fresh[i].index()] = (*s)[i];
  }
  std::vector<double> out;
  out.reserve(configs.size());
  for (const space::Config& c : configs) out.push_back(cache_[c.index()]);
  return out;
}

space::Config Annealer::Neighbor(const space::Config& c) {
  if (mutable_knobs_.empty()) return c;
  for (int attempt = 0; attempt < 4; ++attempt) {
    std::vector<int64_t> genes = c.knob_indices();
    const int k =
        mutable_knobs_[space::UniformIndex(rng_, static_cast<int64_t>(mutable_knobs_.size()))];
    int64_t v = space::UniformIndex(rng_, space_.knob(k).size() - 1);
    if (v >= genes[k]) ++v;  // any value but the current one
    genes[k] = v;
    absl::StatusOr<space::Config> n = space_.FromKnobIndices(std::move(genes));
    if (n.ok() && space_.IsValid(*n)) return *std::move(n);
  }
  return c;
}

bool Annealer::Offer(const space::Config& c, double s) {
  if (!offered_.insert(c.index()).second || excluded_(c.index())) return false;
  const Entry e{s, -c.index()};
  if (static_cast<int>(heap_.size()) < options_.keep) {
    heap_.push(e);
    return true;
  }
  if (e <= heap_.top()) return false;
  heap_.pop();
  heap_.push(e);
  return true;
}

absl::StatusOr<std::vector<std::pair<space::Config, double>>> Annealer::Run(
    std::vector<space::Config> chains, AnnealingStats* stats) {
  absl::StatusOr<std::vector<double>> scores = Score(chains);
  if (!scores.ok()) return scores.status();
  for (size_t i = 0; i < chains.size(); ++i) Offer(chains[i], (*scores)[i]);
  // Temperature unit: the spread of the starting scores.
  double mean = 0, var = 0;
  for (double s : *scores) mean += s / static_cast<double>(scores->size());
  for (double s : *scores) var += (s - mean) * (s - mean) / static_cast<double>(scores->size());
  const double unit = var > 0 ? std::sqrt(var) : 1.0;
  int step = 0, quiet = 0;
  for (; step < options_.steps && quiet < options_.early_stop; ++step) {
    const double t = options_.start_temperature * unit *
                     (1.0 - static_cast<double>(step) / static_cast<double>(options_.steps));
    std::vector<space::Config> next;
    next.reserve(chains.size());
    for (const space::Config& c : chains) next.push_back(Neighbor(c));
    absl::StatusOr<std::vector<double>> next_scores = Score(next);
    if (!next_scores.ok()) return next_scores.status();
    bool improved = false;
    for (size_t i = 0; i < chains.size(); ++i) {
      const double delta = (*next_scores)[i] - (*scores)[i];
      improved |= Offer(next[i], (*next_scores)[i]);
      if (delta >= 0 || (t > 0 && Uniform01(rng_) < std::exp(delta / t))) {
        chains[i] = next[i];
        (*scores)[i] = (*next_scores)[i];
      }
    }
    quiet = improved ? 0 : quiet + 1;
  }
  if (stats != nullptr) {
    stats->steps = step;
    stats->scored = static_cast<int64_t>(cache_.size());
  }
  std::vector<std::pair<space::Config, double>> out;
  while (!heap_.empty()) {
    absl::StatusOr<space::Config> c = space_.Get(-heap_.top().second);
    if (!c.ok()) return c.status();
    out.emplace_back(*std::move(c), heap_.top().first);
    heap_.pop();
  }
  std::reverse(out.begin(), out.end());
  return out;
}

}  // namespace

absl::StatusOr<std::vector<std::pair<space::Config, double>>> Anneal(
    const space::ConfigSpace& space, const std::vector<space::Config>& starts,
    const BatchScorer& score, const std::function<bool(int64_t)>& excluded, std::mt19937_64& rng,
    const AnnealingOptions& options, AnnealingStats* stats) {
  std::vector<space::Config> chains(
      starts.begin(),
      starts.begin() + std::min<long>(static_cast<long>(starts.size()), options.chains));
  if (chains.empty()) return std::vector<std::pair<space::Config, double>>();
  Annealer annealer(space, score, excluded, rng, options);
  return annealer.Run(std::move(chains), stats);
}

}  // namespace tunefarm::tuner
