#include "compiler/topi/winograd_matrices.h"

#include <cmath>
#include <utility>

#include "absl/strings/str_cat.h"

namespace tunefarm::topi {
namespace {

constexpr int kMaxAlpha = 8;

// Toom-Cook multiplies polynomials by evaluating them at alpha points, multiplying the values
// and interpolating. E_k evaluates a polynomial of k coefficients at the points: row j holds
// p_j^0 .. p_j^(k-1), and the point at infinity's row [0 .. 0 1] picks the leading coefficient.
std::vector<double> Evaluation(const std::vector<double>& points, int alpha, int k) {
  std::vector<double> e(static_cast<size_t>(alpha) * k, 0.0);
  for (int j = 0; j + 1 < alpha; ++j) {
    double power = 1;
    for (int i = 0; i < k; ++i) {
      e[j * k + i] = power;
      power *= points[j];
    }
  }
  e[(alpha - 1) * k + (k - 1)] = 1;
  return e;
}

// The inverse of a square matrix by Gauss-Jordan with partial pivoting (n <= 8, well
// conditioned: distinct points).
absl::StatusOr<std::vector<double>> Inverse(std::vector<double> m, int n) {
  std::vector<double> inv(static_cast<size_t>(n) * n, 0.0);
  for (int i = 0; i < n; ++i) inv[i * n + i] = 1;
  for (int col = 0; col < n; ++col) {
    int pivot = col;
    for (int row = col + 1; row < n; ++row) {
      if (std::abs(m[row * n + col]) > std::abs(m[pivot * n + col])) pivot = row;
    }
    if (std::abs(m[pivot * n + col]) < 1e-12) {
      return absl::InternalError("winograd: the interpolation matrix is singular");
    }
    for (int k = 0; k < n; ++k) {
      std::swap(m[col * n + k], m[pivot * n + k]);
      std::swap(inv[col * n + k], inv[pivot * n + k]);
    }
    const double d = m[col * n + col];
    for (int k = 0; k < n; ++k) {
      m[col * n + k] /= d;
      inv[col * n + k] /= d;
    }
    for (int row = 0; row < n; ++row) {
      if (row == col) continue;
      const double f = m[row * n + col];
      if (f == 0) continue;
      for (int k = 0; k < n; ++k) {
        m[row * n + k] -= f * m[col * n + k];
        inv[row * n + k] -= f * inv[col * n + k];
      }
    }
  }
  return inv;
}

}  // namespace

absl::StatusOr<WinogradMatrices> MakeWinogradMatrices(int m, int r) {
  const int alpha = m + r - 1;
  if (m < 2 || r < 2 || alpha > kMaxAlpha) {
    return absl::InvalidArgumentError(absl::StrCat("winograd F(", m, ", ", r,
                                                   "): m and r must be at least 2 and m + r - 1 "
                                                   "at most ",
                                                   kMaxAlpha));
  }
  const std::vector<double> all = {0, 1, -1, 2, -2, 0.5, -0.5};
  const std::vector<double> points(all.begin(), all.begin() + (alpha - 1));
  // The product s = g * h (convolution) is C [(E_r g) ⊙ (E_m h)] with C = E_alpha⁻¹. A
  // correlation is the transpose of that map in h: y = E_mᵀ [(E_r g) ⊙ (Cᵀ d)], so A = E_m,
  // G = E_r and B = C.
  WinogradMatrices w;
  w.m = m;
  w.r = r;
  w.alpha = alpha;
  w.a = Evaluation(points, alpha, m);
  w.g = Evaluation(points, alpha, r);
  absl::StatusOr<std::vector<double>> b = Inverse(Evaluation(points, alpha, alpha), alpha);
  if (!b.ok()) return b.status();
  w.b = *std::move(b);
  return w;
}

}  // namespace tunefarm::topi
