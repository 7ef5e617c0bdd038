#include "tuner/templates/conv2d_template.h"

#include <vector>

#include "compiler/topi/conv2d.h"
#include "compiler/topi/conv2d_knobs.h"
#include "compiler/topi/window.h"
#include "tuner/templates/conv_shape.h"
#include "tuner/templates/template_args.h"

namespace tunefarm::tuner::templates {
namespace {

class Conv2dTemplate final : public TaskTemplate {
 public:
  Conv2dTemplate(ConvShape shape, topi::CpuInfo cpu) : s_(shape), cpu_(std::move(cpu)) {}

  absl::Status DefineSpace(space::ConfigSpace& space) const override {
    absl::StatusOr<topi::Conv2dTensors> t = s_.Conv2dInWholeVectors();
    if (!t.ok()) return t.status();
    return topi::DefineConv2dKnobs(space, *t, s_.window(), cpu_);
  }

  absl::StatusOr<space::Config> DefaultConfig(const space::ConfigSpace& space) const override {
    absl::StatusOr<topi::Conv2dTensors> t = s_.Conv2dInWholeVectors();
    if (!t.ok()) return t.status();
    return topi::Conv2dKnobsFromConfig(space, topi::DefaultConv2dConfig(*t, cpu_));
  }

  absl::StatusOr<topi::ScheduledOp> Apply(const space::Config& config) const override {
    if (absl::Status st = config.space().CheckValid(config); !st.ok()) return st;
    absl::StatusOr<topi::Conv2dScheduleConfig> c = topi::Conv2dConfigFromKnobs(config, cpu_);
    if (!c.ok()) return c.status();
    absl::StatusOr<topi::Conv2dTensors> t = s_.Conv2dInWholeVectors();
    if (!t.ok()) return t.status();
    // The rows past the true width are cut back in the stored tile (conv2d.h).
    return topi::ScheduleConv2d(*c, *t, t->cropped.same_as(t->out) ? te::Tensor() : t->cropped);
  }

  absl::StatusOr<topi::ScheduledOp> Reference(const space::Config& config) const override {
    (void)config;
    absl::StatusOr<topi::Conv2dTensors> t = s_.Conv2dInWholeVectors();
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

TemplateInfo Conv2dTemplateInfo() {
  return {"conv2d", "N,C,H,W,O,KH,KW,stride,pad",
          "direct conv2d, NCHW data, OIHW kernel, dilation 1 (float32)"};
}

std::unique_ptr<TaskTemplate> MakeConv2dTemplate(const Workload& workload, const topi::CpuInfo& cpu,
                                                 absl::Status& error) {
  absl::StatusOr<ConvShape> shape = ParseConvShape(workload, Conv2dTemplateInfo());
  if (!shape.ok()) {
    error = shape.status();
    return nullptr;
  }
  return std::make_unique<Conv2dTemplate>(*shape, cpu);
}

}  // namespace tunefarm::tuner::templates
