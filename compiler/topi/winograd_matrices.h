// The transform matrices of Winograd's minimal filtering F(m, r) (Lavin & Gray, 2016), built by
// Cook-Toom: a correlation of m outputs with an r-tap filter as alpha = m + r - 1 products, where
// the direct form takes m * r. In 2D, F(m x m, 3 x 3) does (m+2)^2 products for 9 m^2.
#pragma once

#include <vector>

#include "absl/status/statusor.h"

namespace tunefarm::topi {

// y = Aᵀ [(G g) ⊙ (Bᵀ d)] for d of alpha inputs, g of r taps and y of m outputs, y[i] = Σ_k g[k]
// d[i + k]; in 2D Y = Aᵀ [(G g Gᵀ) ⊙ (Bᵀ d B)] A. Row-major.
struct WinogradMatrices {
  int m = 0, r = 0, alpha = 0;
  std::vector<double> a;  // alpha x m
  std::vector<double> b;  // alpha x alpha
  std::vector<double> g;  // alpha x r

  double A(int i, int j) const { return a[i * m + j]; }
  double B(int i, int j) const { return b[i * alpha + j]; }
  double G(int i, int j) const { return g[i * r + j]; }
};

// m in 2..6 and r in 2..5 with alpha at most 8: interpolation at 0, ±1, ±2, ±1/2 (as many as
// alpha - 1 needs) and infinity, small numbers that keep float32 error low. InvalidArgument
// otherwise.
absl::StatusOr<WinogradMatrices> MakeWinogradMatrices(int m, int r);

}  // namespace tunefarm::topi
