// A C++ loop nest for the conv templates' references (direct NCHW, blocked NCHWc, depthwise),
// run on the reference's own argument layouts, so a template's reference is checked itself.
#pragma once

#include <cmath>
#include <gtest/gtest.h>
#include <string>
#include <vector>

#include "tests/unit/tuner/templates/template_harness.h"

namespace tunefarm::tuner::testing {

enum class ConvLayout { kNchw, kNchwc, kDepthwise };

// Builds `key`'s task, runs Reference(default config) and compares every output element with
// the sum a naive loop nest computes over the same (possibly blocked, zero-free) arrays.
inline void CheckConvReference(const std::string& key, ConvLayout layout) {
  SCOPED_TRACE(key);
  std::unique_ptr<Task> task = MakeTask(key);
  ASSERT_NE(task, nullptr);
  const std::vector<int64_t>& a = task->workload().args;
  const bool dw = layout == ConvLayout::kDepthwise;
  const int64_t stride = a[dw ? 6 : 7], pad = a[dw ? 7 : 8];
  absl::StatusOr<space::Config> def = task->DefaultConfig();
  ASSERT_TRUE(def.ok()) << def.status();
  absl::StatusOr<topi::ScheduledOp> ref = task->tmpl().Reference(*def);
  ASSERT_TRUE(ref.ok()) << ref.status();
  std::vector<runtime::NDArray> arrays = MakeArgs(*ref);
  ASSERT_TRUE(BuildAndRun(*ref, arrays, 1).ok());
  const std::vector<int64_t> ds = ShapeOf(ref->args[0]), ks = ShapeOf(ref->args[1]),
                             os = ShapeOf(ref->args[2]);
  const float* data = static_cast<const float*>(arrays[0].data());
  const float* kernel = static_cast<const float*>(arrays[1].data());
  const float* out = static_cast<const float*>(arrays[2].data());
  // Channel counts over the arrays' full (blocked) extents.
  const bool blocked = layout == ConvLayout::kNchwc;
  const int64_t n = ds[0], h = ds[2], w = ds[3];
  const int64_t ic = blocked ? ds[4] : 1, c = blocked ? ds[1] * ic : ds[1];
  const int64_t oc = blocked ? os[4] : 1, o = blocked ? os[1] * oc : os[1];
  const int64_t kh = ks[2], kw = ks[3], oh = os[2], ow = os[3];
  auto data_at = [&](int64_t b, int64_t ch, int64_t y, int64_t x) -> double {
    if (y < 0 || y >= h || x < 0 || x >= w) return 0.0;
    if (!blocked) return data[((b * c + ch) * h + y) * w + x];
    return data[(((b * (c / ic) + ch / ic) * h + y) * w + x) * ic + ch % ic];
  };
  auto kernel_at = [&](int64_t f, int64_t ch, int64_t y, int64_t x) -> double {
    if (dw) return kernel[(f * kh + y) * kw + x];
    if (!blocked) return kernel[((f * c + ch) * kh + y) * kw + x];
    return kernel[(((((f / oc) * (c / ic) + ch / ic) * kh + y) * kw + x) * ic + ch % ic) * oc +
                  f % oc];
  };
  for (int64_t b = 0; b < n; ++b) {
    for (int64_t f = 0; f < o; ++f) {
      for (int64_t y = 0; y < oh; ++y) {
        for (int64_t x = 0; x < ow; ++x) {
          double acc = 0;
          for (int64_t ch = dw ? f : 0; ch < (dw ? f + 1 : c); ++ch) {
            for (int64_t ry = 0; ry < kh; ++ry) {
              for (int64_t rx = 0; rx < kw; ++rx) {
                acc += data_at(b, ch, y * stride + ry - pad, x * stride + rx - pad) *
                       kernel_at(f, ch, ry, rx);
              }
            }
          }
          const int64_t at = blocked ? (((b * (o / oc) + f / oc) * oh + y) * ow + x) * oc + f % oc
                                     : ((b * o + f) * oh + y) * ow + x;
          ASSERT_NEAR(out[at], acc, 1e-4 + 1e-4 * std::fabs(acc)) << "output " << at;
        }
      }
    }
  }
}

}  // namespace tunefarm::tuner::testing
