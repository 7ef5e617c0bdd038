#include "tuner/search/genetic_search.h"

#include <algorithm>
#include <numeric>

#include "compiler/space/config_sampler.h"
#include "tuner/search/uniform01.h"

namespace tunefarm::tuner {
namespace {

size_t Roulette(std::mt19937_64& rng, const std::vector<double>& cumulative) {
  double x = Uniform01(rng) * cumulative.back();
  return static_cast<size_t>(std::upper_bound(cumulative.begin(), cumulative.end(), x) -
                             cumulative.begin()) %
         cumulative.size();
}

}  // namespace

std::optional<space::Config> GeneticSearch::Breed(const std::vector<size_t>& population,
                                                  const std::vector<double>& cumulative,
                                                  size_t child) {
  const space::ConfigSpace& space = history_.space();
  const auto& measured = history_.measured();
  for (int attempt = 0; attempt < options_.attempts_per_child; ++attempt) {
    // Elitism: the first children each have an elite parent, so the best always reproduce.
    size_t a = child < static_cast<size_t>(options_.elite) && child < population.size()
                   ? child
                   : Roulette(rng_, cumulative);
    size_t b = Roulette(rng_, cumulative);
    const auto& pa = measured[population[a]].knob_indices;
    const auto& pb = measured[population[b]].knob_indices;
    std::vector<int64_t> genes(pa.size());
    for (size_t k = 0; k < genes.size(); ++k) {
      genes[k] = (rng_() & 1) ? pa[k] : pb[k];
      if (Uniform01(rng_) < options_.mutation) {
        genes[k] = space::UniformIndex(rng_, space.knob(static_cast<int>(k)).size());
      }
    }
    absl::StatusOr<space::Config> c = space.FromKnobIndices(std::move(genes));
    if (!c.ok() || history_.Seen(c->index())) continue;
    history_.MarkSeen(c->index());
    if (space.IsValid(*c)) return *std::move(c);
  }
  return std::nullopt;
}

absl::StatusOr<std::vector<space::Config>> GeneticSearch::NextBatch(int n) {
  if (history_.measured().size() < 2) return DrawUnseen(history_, rng_, n);
  std::vector<size_t> population =
      history_.TopMeasured(static_cast<size_t>(std::max(options_.population, 2)));
  // Fitness relative to the best, plus a floor so failed or slow parents still breed rarely.
  const double best = std::max(history_.measured()[population[0]].throughput, 1e-300);
  std::vector<double> cumulative;
  double total = 0;
  for (size_t p : population) {
    total += history_.measured()[p].throughput / best + 0.02;
    cumulative.push_back(total);
  }
  std::vector<space::Config> out;
  for (int child = 0; child < n; ++child) {
    std::optional<space::Config> c = Breed(population, cumulative, static_cast<size_t>(child));
    if (c) out.push_back(*std::move(c));
  }
  // Children that could not be bred (a converged population) are replaced by random configs.
  if (static_cast<int>(out.size()) < n) {
    absl::StatusOr<std::vector<space::Config>> fill =
        DrawUnseen(history_, rng_, n - static_cast<int>(out.size()));
    if (!fill.ok()) return fill.status();
    for (space::Config& c : *fill) out.push_back(std::move(c));
  }
  return out;
}

}  // namespace tunefarm::tuner
