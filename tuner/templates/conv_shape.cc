#include "tuner/templates/conv_shape.h"

#include <algorithm>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "tuner/templates/template_args.h"

namespace tunefarm::tuner::templates {

double ConvShape::Flops() const {
  const double per_output = static_cast<double>(depthwise ? 1 : c) * kh * kw;
  return 2.0 * static_cast<double>(n) * o * oh * ow * per_output;
}

absl::StatusOr<topi::Conv2dTensors> ConvShape::Conv2d() const {
  return topi::Conv2dCompute(Float32Placeholder({n, c, h, w}, "data"),
                             Float32Placeholder({o, c, kh, kw}, "kernel"), window());
}

absl::StatusOr<topi::Conv2dTensors> ConvShape::Conv2dInWholeVectors() const {
  return topi::Conv2dCompute(Float32Placeholder({n, c, h, w}, "data"),
                             Float32Placeholder({o, c, kh, kw}, "kernel"), window(),
                             topi::VectorRowsFor(ow));
}

absl::StatusOr<topi::DepthwiseConv2dTensors> ConvShape::DepthwiseConv2d() const {
  return topi::DepthwiseConv2dCompute(Float32Placeholder({n, c, h, w}, "data"),
                                      Float32Placeholder({c, 1, kh, kw}, "kernel"), window());
}

absl::StatusOr<topi::DepthwiseConv2dTensors> ConvShape::DepthwiseConv2dInWholeVectors() const {
  return topi::DepthwiseConv2dCompute(Float32Placeholder({n, c, h, w}, "data"),
                                      Float32Placeholder({c, 1, kh, kw}, "kernel"), window(),
                                      topi::VectorRowsFor(ow));
}

absl::StatusOr<ConvShape> ParseConvShape(const Workload& workload, const TemplateInfo& info,
                                         const std::string& dtype) {
  if (absl::Status st = CheckWorkloadArgs(workload, info, "pad", dtype); !st.ok()) return st;
  const std::vector<int64_t>& a = workload.args;
  ConvShape s;
  s.depthwise = a.size() == 8;
  size_t i = 0;
  s.n = a[i++];
  s.c = a[i++];
  s.h = a[i++];
  s.w = a[i++];
  s.o = s.depthwise ? s.c : a[i++];
  s.kh = a[i++];
  s.kw = a[i++];
  s.stride = a[i++];
  s.pad = a[i++];
  absl::StatusOr<topi::WindowOutput> out = topi::SlideWindow(
      info.name,
      absl::StrCat("data ", s.n, "x", s.c, "x", s.h, "x", s.w, ", window ", s.kh, "x", s.kw),
      s.window(), s.h, s.w, s.kh, s.kw);
  if (!out.ok()) return WorkloadError(workload, out.status());
  s.oh = out->h;
  s.ow = out->w;
  const std::vector<std::pair<std::string, std::vector<int64_t>>> tensors = {
      {"data", {s.n, s.c, s.h + 2 * s.pad, s.w + 2 * s.pad}},
      {"kernel", {s.o, s.depthwise ? 1 : s.c, s.kh, s.kw}},
      {"output", {s.n, s.o, s.oh, s.ow}}};
  for (const auto& [name, shape] : tensors) {
    if (absl::Status st = CheckTensorSize(workload, name, shape); !st.ok()) return st;
  }
  return s;
}

absl::StatusOr<BlockedConvShape> ParseBlockedConvShape(const Workload& workload,
                                                       const TemplateInfo& info,
                                                       const std::string& dtype) {
  const size_t plain = std::count(info.args_help.begin(), info.args_help.end(), ',') + 1;
  const bool depthwise = plain == 8;
  const size_t block_args = depthwise ? 1 : 2;
  if (workload.args.size() != plain + block_args) {
    absl::StatusOr<ConvShape> shape = ParseConvShape(workload, info, dtype);
    if (!shape.ok()) return shape.status();
    return BlockedConvShape{*shape, std::nullopt};
  }
  Workload unblocked = workload;
  unblocked.args.resize(plain);
  absl::StatusOr<ConvShape> shape = ParseConvShape(unblocked, info, dtype);
  if (!shape.ok()) return shape.status();
  const std::vector<int64_t> blocks(workload.args.begin() + plain, workload.args.end());
  for (int64_t b : blocks) {
    if (b < 1 || b > kMaxChannelBlock) {
      return WorkloadError(
          workload,
          absl::InvalidArgumentError(absl::StrCat(
              info.name, " channel block ", b, " is outside 1..", kMaxChannelBlock, " (arguments ",
              info.args_help, depthwise ? ",channel_block" : ",ic_block,oc_block", ")")));
    }
  }
  return BlockedConvShape{*shape, topi::NchwcBlocks{blocks.front(), blocks.back()}};
}

}  // namespace tunefarm::tuner::templates
