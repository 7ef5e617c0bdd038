// The elementwise math functions of ONNX's unary ops (Abs, Erf, Elu, Gelu, Mish ...) as one
// single-stage compute, chosen by name, so the graph level carries them as one op.
#pragma once

#include <optional>
#include <string_view>

#include "absl/status/statusor.h"
#include "compiler/te/tensor.h"

namespace tunefarm::topi {

enum class UnaryFn : uint8_t {
  kAbs,
  kNeg,
  kSign,
  kFloor,
  kCeil,
  kRound,  // halfway cases to even
  kSqrt,
  kReciprocal,
  kLog,
  kErf,
  kSoftplus,         // log(1 + e^x)
  kSoftsign,         // x / (1 + |x|)
  kElu,              // x < 0 ? alpha * (e^x - 1) : x
  kSelu,             // gamma * (x <= 0 ? alpha * (e^x - 1) : x)
  kCelu,             // max(0, x) + min(0, alpha * (e^(x / alpha) - 1))
  kLeakyRelu,        // x < 0 ? alpha * x : x
  kThresholdedRelu,  // x > alpha ? x : 0
  kMish,             // x * tanh(softplus(x))
  kGelu,             // x * Phi(x), exactly (erf)
  kGeluTanh,         // GELU's tanh approximation, as ONNX's Gelu approximate="tanh" defines it
  kShrink,  // x < -alpha ? x + gamma : x > alpha ? x - gamma : 0 (alpha: lambd, gamma: bias)
  kSin,
  kCos,
  kTan,
  kSinh,
  kCosh,
  kAsin,
  kAcos,
  kAtan,
  kAsinh,
  kAcosh,
  kAtanh,
};

// The function's name in graphs and scripts ("leaky_relu"), and back (nullopt when unknown).
std::string_view UnaryFnName(UnaryFn fn);
std::optional<UnaryFn> UnaryFnFromName(std::string_view name);
// Whether the function is defined on integers too (abs, neg, sign); the rest need floats.
bool UnaryFnTakesIntegers(UnaryFn fn);

// The parameters some functions take (elu, selu, celu, leaky_relu, thresholded_relu, shrink);
// ONNX's defaults are the caller's business.
struct UnaryParams {
  double alpha = 0;
  double gamma = 0;
};

// out[i] = fn(x[i]). Errors: an undefined input, a float function of an integer tensor, celu with
// alpha 0.
absl::StatusOr<te::Tensor> UnaryMathCompute(const te::Tensor& x, UnaryFn fn,
                                            const UnaryParams& params = {});

}  // namespace tunefarm::topi
