// The window arithmetic shared by conv2d and the 2-D pools.
#include "absl/strings/str_cat.h"
#include "compiler/graph/op_inference.h"

namespace tunefarm::graph {
namespace {

absl::Status ReadPair(const InferContext& ctx, const char* name, int64_t min, int64_t out[],
                      size_t count) {
  absl::StatusOr<std::vector<int64_t>> v =
      ctx.node.attrs.Ints(name, std::vector<int64_t>(out, out + count));
  if (!v.ok()) return ctx.Annotate(v.status());
  if (v->size() != count) {
    return ctx.Error(absl::StrCat(name, " must have ", count, " values, got ", v->size()));
  }
  for (size_t i = 0; i < count; ++i) {
    if ((*v)[i] < min || (*v)[i] > kMaxElements) {
      return ctx.Error(absl::StrCat(name, " value ", (*v)[i], " is out of range"));
    }
    out[i] = (*v)[i];
  }
  return absl::OkStatus();
}

}  // namespace

absl::StatusOr<Window2d> ReadWindow2d(const InferContext& ctx, const int64_t* kernel) {
  Window2d w;
  absl::Status s;
  if (kernel == nullptr) {
    if (!ctx.node.attrs.Has("kernel")) return ctx.Error("attribute 'kernel' is required");
    s = ReadPair(ctx, "kernel", 1, w.kernel, 2);
  } else {
    w.kernel[0] = kernel[0];
    w.kernel[1] = kernel[1];
    if (w.kernel[0] < 1 || w.kernel[1] < 1) return ctx.Error("kernel sizes must be at least 1");
  }
  if (s.ok()) s = ReadPair(ctx, "strides", 1, w.strides, 2);
  if (s.ok()) s = ReadPair(ctx, "pads", 0, w.pads, 4);
  if (s.ok()) s = ReadPair(ctx, "dilations", 1, w.dilations, 2);
  if (!s.ok()) return s;
  absl::StatusOr<int64_t> ceil_mode = ctx.node.attrs.Int("ceil_mode", 0);
  if (!ceil_mode.ok()) return ctx.Annotate(ceil_mode.status());
  w.ceil_mode = *ceil_mode != 0;
  return w;
}

absl::StatusOr<std::vector<int64_t>> WindowOutputSize(const InferContext& ctx,
                                                      const Window2d& window, int64_t h,
                                                      int64_t w) {
  std::vector<int64_t> out(2);
  const int64_t in[2] = {h, w};
  for (int d = 0; d < 2; ++d) {
    // Every term is at most 2^48, so only the dilated kernel can overflow.
    int64_t extent;
    if (__builtin_mul_overflow(window.kernel[d] - 1, window.dilations[d], &extent) ||
        extent >= kMaxElements) {
      return ctx.Error("dilated kernel is too large");
    }
    extent += 1;
    int64_t begin = window.pads[d], end = window.pads[d + 2];
    int64_t span = in[d] + begin + end - extent;
    if (span < 0) {
      return ctx.Error(absl::StrCat("window of extent ", extent, " does not fit the padded input (",
                                    in[d], " + ", begin, " + ", end, ") of dimension ", d + 2));
    }
    int64_t s = window.strides[d];
    int64_t n = (window.ceil_mode ? (span + s - 1) / s : span / s) + 1;
    // With ceil_mode, a last window starting in the end padding reads no input: drop it.
    if (window.ceil_mode && (n - 1) * s >= in[d] + begin) --n;
    out[d] = n;
  }
  return out;
}

}  // namespace tunefarm::graph
