#include "tuner/search/rank_metrics.h"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace tunefarm::tuner {
namespace {

std::vector<double> AverageRanks(const std::vector<double>& v, size_t n) {
  std::vector<size_t> order(n);
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](size_t x, size_t y) { return v[x] < v[y]; });
  std::vector<double> ranks(n);
  for (size_t i = 0; i < n;) {
    size_t j = i;
    while (j + 1 < n && v[order[j + 1]] == v[order[i]]) ++j;
    const double rank = 0.5 * static_cast<double>(i + j);
    for (size_t k = i; k <= j; ++k) ranks[order[k]] = rank;
    i = j + 1;
  }
  return ranks;
}

int Sign(double x) { return (x > 0) - (x < 0); }

}  // namespace

double SpearmanCorrelation(const std::vector<double>& a, const std::vector<double>& b) {
  const size_t n = std::min(a.size(), b.size());
  if (n < 2) return 0;
  std::vector<double> ra = AverageRanks(a, n), rb = AverageRanks(b, n);
  const double mean = 0.5 * static_cast<double>(n - 1);
  double sab = 0, saa = 0, sbb = 0;
  for (size_t i = 0; i < n; ++i) {
    sab += (ra[i] - mean) * (rb[i] - mean);
    saa += (ra[i] - mean) * (ra[i] - mean);
    sbb += (rb[i] - mean) * (rb[i] - mean);
  }
  return saa > 0 && sbb > 0 ? sab / std::sqrt(saa * sbb) : 0;
}

double KendallTau(const std::vector<double>& a, const std::vector<double>& b) {
  const size_t n = std::min(a.size(), b.size());
  double concordant = 0, ties_a = 0, ties_b = 0, pairs = 0;
  for (size_t i = 0; i < n; ++i) {
    for (size_t j = i + 1; j < n; ++j) {
      const int sa = Sign(a[i] - a[j]), sb = Sign(b[i] - b[j]);
      pairs += 1;
      if (sa == 0) ties_a += 1;
      if (sb == 0) ties_b += 1;
      concordant += sa * sb;
    }
  }
  const double denom = std::sqrt((pairs - ties_a) * (pairs - ties_b));
  return denom > 0 ? concordant / denom : 0;
}

double PairwiseAccuracy(const std::vector<double>& predicted, const std::vector<double>& truth) {
  const size_t n = std::min(predicted.size(), truth.size());
  double right = 0, pairs = 0;
  for (size_t i = 0; i < n; ++i) {
    for (size_t j = i + 1; j < n; ++j) {
      const int st = Sign(truth[i] - truth[j]);
      if (st == 0) continue;
      const int sp = Sign(predicted[i] - predicted[j]);
      pairs += 1;
      right += sp == st ? 1.0 : (sp == 0 ? 0.5 : 0.0);
    }
  }
  return pairs > 0 ? right / pairs : 0.5;
}

}  // namespace tunefarm::tuner
