// The vendor kernels our benchmarks compare against, set up once (inputs allocated and filled,
// oneDNN primitives created with the layouts oneDNN prefers) so that only the call is timed.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>

#include "absl/status/statusor.h"

namespace tunefarm::bench {

struct VendorKernel {
  std::string library;        // "OpenBLAS 0.3.21", "oneDNN 2.6.3"
  std::function<void()> run;  // one call; blocks until the result is written
  std::shared_ptr<void> state;
};

// Sets the thread count of both libraries (OpenBLAS's pool and oneDNN's OpenMP runtime).
void SetVendorThreads(int threads);

// Row-major C[m, n] = A[m, k] * B[k, n] with cblas_sgemm.
absl::StatusOr<VendorKernel> OpenBlasSgemm(int64_t m, int64_t n, int64_t k);

// Y[m, n] = sum_k A[m, k] * W[k, n] with oneDNN's matmul: uint8 A, int8 W in the layout oneDNN
// picks (format `any`, reordered once ahead), int32 Y.
absl::StatusOr<VendorKernel> OneDnnInt8Matmul(int64_t m, int64_t n, int64_t k);

struct ConvShape {
  int64_t batch, in_channels, height, width, out_channels, kernel, stride, pad;
  int64_t groups = 1;  // == in_channels == out_channels for a depthwise conv
  int64_t out_height() const { return (height + 2 * pad - kernel) / stride + 1; }
  int64_t out_width() const { return (width + 2 * pad - kernel) / stride + 1; }
  double flops() const {
    return 2.0 * batch * out_channels * out_height() * out_width() * (in_channels / groups) *
           kernel * kernel;
  }
};

// The same convolution in int8 (uint8 source, int8 weights, int32 destination), layouts as above.
absl::StatusOr<VendorKernel> OneDnnInt8Conv2d(const ConvShape& shape);

// A forward-inference fp32 convolution in the layouts oneDNN picks for the shape (format `any`),
// the counterpart of our blocked NCHWc schedule with pre-packed weights.
absl::StatusOr<VendorKernel> OneDnnConv2d(const ConvShape& shape);

}  // namespace tunefarm::bench
