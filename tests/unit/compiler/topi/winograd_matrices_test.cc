// Winograd's transform matrices compute the correlation they stand for: in 1D and 2D, for every
// tile size the conv template offers, against the direct sum.
#include "compiler/topi/winograd_matrices.h"

#include <gtest/gtest.h>
#include <random>

namespace tunefarm::topi {
namespace {

TEST(WinogradMatricesTest, OneDimensionalTilesMatchTheDirectCorrelation) {
  std::mt19937 rng(3);
  std::uniform_real_distribution<double> u(-1, 1);
  for (int m : {2, 3, 4, 6}) {
    absl::StatusOr<WinogradMatrices> w = MakeWinogradMatrices(m, 3);
    ASSERT_TRUE(w.ok()) << w.status();
    ASSERT_EQ(w->alpha, m + 2);
    std::vector<double> d(w->alpha), g(3);
    for (double& x : d) x = u(rng);
    for (double& x : g) x = u(rng);
    std::vector<double> product(w->alpha);
    for (int j = 0; j < w->alpha; ++j) {
      double gg = 0, dd = 0;
      for (int k = 0; k < 3; ++k) gg += w->G(j, k) * g[k];
      for (int i = 0; i < w->alpha; ++i) dd += w->B(i, j) * d[i];
      product[j] = gg * dd;
    }
    for (int i = 0; i < m; ++i) {
      double y = 0, want = 0;
      for (int j = 0; j < w->alpha; ++j) y += w->A(j, i) * product[j];
      for (int k = 0; k < 3; ++k) want += g[k] * d[i + k];
      EXPECT_NEAR(y, want, 1e-12) << "F(" << m << ",3) output " << i;
    }
  }
}

TEST(WinogradMatricesTest, TwoDimensionalTilesMatchTheDirectCorrelation) {
  absl::StatusOr<WinogradMatrices> w = MakeWinogradMatrices(4, 3);
  ASSERT_TRUE(w.ok()) << w.status();
  const int n = w->alpha;
  std::mt19937 rng(4);
  std::uniform_real_distribution<double> u(-1, 1);
  std::vector<double> d(n * n), g(9);
  for (double& x : d) x = u(rng);
  for (double& x : g) x = u(rng);
  // U = G g Gᵀ, V = Bᵀ d B, Y = Aᵀ (U ⊙ V) A.
  std::vector<double> uu(n * n, 0), vv(n * n, 0);
  for (int xi = 0; xi < n; ++xi)
    for (int nu = 0; nu < n; ++nu)
      for (int a = 0; a < n; ++a)
        for (int b = 0; b < n; ++b) {
          if (a < 3 && b < 3) uu[xi * n + nu] += w->G(xi, a) * g[a * 3 + b] * w->G(nu, b);
          vv[xi * n + nu] += w->B(a, xi) * d[a * n + b] * w->B(b, nu);
        }
  for (int y = 0; y < 4; ++y)
    for (int x = 0; x < 4; ++x) {
      double got = 0, want = 0;
      for (int xi = 0; xi < n; ++xi)
        for (int nu = 0; nu < n; ++nu)
          got += w->A(xi, y) * uu[xi * n + nu] * vv[xi * n + nu] * w->A(nu, x);
      for (int a = 0; a < 3; ++a)
        for (int b = 0; b < 3; ++b) want += g[a * 3 + b] * d[(y + a) * n + x + b];
      EXPECT_NEAR(got, want, 1e-11) << y << "," << x;
    }
}

TEST(WinogradMatricesTest, TilesPastEightPointsAreRefused) {
  EXPECT_EQ(MakeWinogradMatrices(7, 3).status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(MakeWinogradMatrices(1, 3).status().code(), absl::StatusCode::kInvalidArgument);
}

}  // namespace
}  // namespace tunefarm::topi
