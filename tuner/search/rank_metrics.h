// Rank agreement between predicted scores and measured throughputs: how the cost model and the
// transfer-learning gate judge a model (scores only need to rank correctly).
#pragma once

#include <vector>

namespace tunefarm::tuner {

// Spearman's rank correlation (ties get average ranks); 0 when either side is constant or there
// are fewer than two values. Sizes must match (the shorter length is used otherwise).
double SpearmanCorrelation(const std::vector<double>& a, const std::vector<double>& b);

// Kendall's tau-b; 0 for constant inputs.
double KendallTau(const std::vector<double>& a, const std::vector<double>& b);

// Among pairs whose `truth` differs, the fraction that `predicted` orders the same way (ties in
// `predicted` count one half); 0.5 when no pair differs.
double PairwiseAccuracy(const std::vector<double>& predicted, const std::vector<double>& truth);

}  // namespace tunefarm::tuner
