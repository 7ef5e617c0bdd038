#include "tuner/templates/depthwise_conv2d_template.h"

#include "compiler/topi/depthwise_conv2d.h"
#include "compiler/topi/depthwise_conv2d_knobs.h"
#include "tuner/templates/conv_shape.h"
#include "tuner/templates/template_args.h"

namespace tunefarm::tuner::templates {
namespace {

class DepthwiseConv2dTemplate final : public TaskTemplate {
 public:
  DepthwiseConv2dTemplate(ConvShape shape, topi::CpuInfo cpu) : s_(shape), cpu_(std::move(cpu)) {}

  absl::Status DefineSpace(space::ConfigSpace& space) const override {
    absl::StatusOr<topi::DepthwiseConv2dTensors> t = s_.DepthwiseConv2dInWholeVectors();
    if (!t.ok()) return t.status();
    return topi::DefineDepthwiseConv2dKnobs(space, *t, s_.window(), cpu_);
  }

  absl::StatusOr<space::Config> DefaultConfig(const space::ConfigSpace& space) const override {
    absl::StatusOr<topi::DepthwiseConv2dTensors> t = s_.DepthwiseConv2dInWholeVectors();
    if (!t.ok()) return t.status();
    return topi::DepthwiseConv2dKnobsFromConfig(space,
                                                topi::DefaultDepthwiseConv2dConfig(*t, cpu_));
  }

  absl::StatusOr<topi::ScheduledOp> Apply(const space::Config& config) const override {
    if (absl::Status st = config.space().CheckValid(config); !st.ok()) return st;
    absl::StatusOr<topi::DepthwiseConv2dScheduleConfig> c =
        topi::DepthwiseConv2dConfigFromKnobs(config, cpu_);
    if (!c.ok()) return c.status();
    absl::StatusOr<topi::DepthwiseConv2dTensors> t = s_.DepthwiseConv2dInWholeVectors();
    if (!t.ok()) return t.status();
    return topi::ScheduleDepthwiseConv2d(*c, *t);
  }

  absl::StatusOr<topi::ScheduledOp> Reference(const space::Config& config) const override {
    (void)config;
    absl::StatusOr<topi::DepthwiseConv2dTensors> t = s_.DepthwiseConv2dInWholeVectors();
    if (!t.ok()) return t.status();
    return topi::ScheduledOp{schedule::Schedule::Create({t->cropped.op()}),
                             {t->data, t->kernel, t->cropped}};
  }

  double Flops() const override { return s_.Flops(); }

 private:
  ConvShape s_;
  topi::CpuInfo cpu_;
};

}  // namespace

TemplateInfo DepthwiseConv2dTemplateInfo() {
  return {"depthwise_conv2d", "N,C,H,W,KH,KW,stride,pad",
          "depthwise conv2d, NCHW data, [C][1][KH][KW] kernel, multiplier 1 (float32)"};
}

std::unique_ptr<TaskTemplate> MakeDepthwiseConv2dTemplate(const Workload& workload,
                                                          const topi::CpuInfo& cpu,
                                                          absl::Status& error) {
  absl::StatusOr<ConvShape> shape = ParseConvShape(workload, DepthwiseConv2dTemplateInfo());
  if (!shape.ok()) {
    error = shape.status();
    return nullptr;
  }
  return std::make_unique<DepthwiseConv2dTemplate>(*shape, cpu);
}

}  // namespace tunefarm::tuner::templates
