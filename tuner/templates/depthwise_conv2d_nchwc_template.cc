// The arguments are data[N][ceil(C/c)][H][W][c], kernel[ceil(C/c)][KH][KW][c] and
// out[N][ceil(C/c)][OH][OW][c] (channels past C are padding), so configs with another channel
// block need another reference run.
#include "tuner/templates/depthwise_conv2d_nchwc_template.h"

#include <optional>
#include <vector>

#include "absl/strings/str_cat.h"
#include "compiler/topi/depthwise_conv2d_nchwc.h"
#include "compiler/topi/depthwise_conv2d_nchwc_knobs.h"
#include "compiler/topi/static_shape.h"
#include "tuner/templates/conv_shape.h"
#include "tuner/templates/template_args.h"

namespace tunefarm::tuner::templates {
namespace {

class DepthwiseConv2dNchwcTemplate final : public TaskTemplate {
 public:
  DepthwiseConv2dNchwcTemplate(BlockedConvShape shape, topi::CpuInfo cpu)
      : s_(shape.shape), cpu_(std::move(cpu)) {
    if (shape.blocks) block_ = shape.blocks->oc_block;
  }

  absl::Status DefineSpace(space::ConfigSpace& space) const override {
    return topi::DefineDepthwiseConv2dNchwcKnobs(space, DataShape(), s_.kh, s_.kw, s_.window(),
                                                 cpu_, block_);
  }

  absl::StatusOr<space::Config> DefaultConfig(const space::ConfigSpace& space) const override {
    return topi::DepthwiseConv2dNchwcKnobsFromConfig(
        space, topi::DefaultDepthwiseConv2dNchwcConfig(DataShape(), s_.kh, s_.kw, s_.window(), cpu_,
                                                       block_));
  }

  absl::StatusOr<topi::ScheduledOp> Apply(const space::Config& config) const override {
    if (absl::Status st = config.space().CheckValid(config); !st.ok()) return st;
    absl::StatusOr<topi::DepthwiseConv2dNchwcScheduleConfig> c =
        topi::DepthwiseConv2dNchwcConfigFromKnobs(config, cpu_);
    if (!c.ok()) return c.status();
    absl::StatusOr<topi::DepthwiseConv2dNchwcTensors> t = Compute(c->channel_block);
    if (!t.ok()) return t.status();
    return topi::ScheduleDepthwiseConv2dNchwc(*c, *t);
  }

  absl::StatusOr<topi::ScheduledOp> Reference(const space::Config& config) const override {
    absl::StatusOr<topi::DepthwiseConv2dNchwcScheduleConfig> c =
        topi::DepthwiseConv2dNchwcConfigFromKnobs(config, cpu_);
    if (!c.ok()) return c.status();
    absl::StatusOr<topi::DepthwiseConv2dNchwcTensors> t = Compute(c->channel_block);
    if (!t.ok()) return t.status();
    return topi::ScheduledOp{schedule::Schedule::Create({t->out.op()}),
                             {t->data, t->kernel, t->out}};
  }

  std::string ReferenceKey(const space::Config& config) const override {
    absl::StatusOr<int64_t> block = config.ChoiceInt("channel_block");
    return block.ok() ? absl::StrCat("c", *block) : "";
  }

  double Flops() const override { return s_.Flops(); }

 private:
  std::vector<int64_t> DataShape() const { return {s_.n, s_.c, s_.h, s_.w}; }

  absl::StatusOr<topi::DepthwiseConv2dNchwcTensors> Compute(int64_t block) const {
    const int64_t cb = topi::CeilDiv(s_.c, block);
    return topi::DepthwiseConv2dNchwcCompute(
        Float32Placeholder({s_.n, cb, s_.h, s_.w, block}, "data"),
        Float32Placeholder({cb, s_.kh, s_.kw, block}, "kernel"), s_.window());
  }

  ConvShape s_;
  topi::CpuInfo cpu_;
  std::optional<int64_t> block_;  // fixed by the workload, else a knob
};

}  // namespace

TemplateInfo DepthwiseConv2dNchwcTemplateInfo() {
  return {"depthwise_conv2d_nchwc", "N,C,H,W,KH,KW,stride,pad",
          "depthwise conv2d in blocked NCHW[c]c / [C/c][KH][KW][c] layouts, the block tuned, or "
          "fixed by one more argument channel_block as a model's layout fixes it (float32)"};
}

std::unique_ptr<TaskTemplate> MakeDepthwiseConv2dNchwcTemplate(const Workload& workload,
                                                               const topi::CpuInfo& cpu,
                                                               absl::Status& error) {
  absl::StatusOr<BlockedConvShape> shape =
      ParseBlockedConvShape(workload, DepthwiseConv2dNchwcTemplateInfo());
  if (!shape.ok()) {
    error = shape.status();
    return nullptr;
  }
  return std::make_unique<DepthwiseConv2dNchwcTemplate>(*shape, cpu);
}

}  // namespace tunefarm::tuner::templates
