// One class serves both GPU convs: they share the NCHW output tiling, the conv shape and the
// naive GPU reference, and differ in the compute, the knobs and the schedule.
#include "tuner/templates/gpu_conv_templates.h"

#include "compiler/topi/conv2d.h"
#include "compiler/topi/depthwise_conv2d.h"
#include "compiler/topi/gpu_conv2d_knobs.h"
#include "compiler/topi/gpu_depthwise_conv2d_knobs.h"
#include "compiler/topi/gpu_reference_schedule.h"
#include "tuner/templates/conv_shape.h"
#include "tuner/templates/template_args.h"

namespace tunefarm::tuner::templates {
namespace {

// conv2d's and depthwise_conv2d's tensors have the same members.
template <typename Tensors>
absl::StatusOr<topi::ScheduledOp> GpuConvReference(const Tensors& t) {
  std::vector<te::Tensor> inlined;
  if (!t.padded.same_as(t.data)) inlined.push_back(t.padded);
  return topi::ScheduleGpuReference(t.out, inlined, {t.data, t.kernel, t.out});
}

class GpuConv2dTemplate final : public TaskTemplate {
 public:
  explicit GpuConv2dTemplate(ConvShape shape) : s_(shape) {}

  absl::Status DefineSpace(space::ConfigSpace& space) const override {
    absl::StatusOr<topi::Conv2dTensors> t = s_.Conv2d();
    if (!t.ok()) return t.status();
    return topi::DefineGpuConv2dKnobs(space, *t, s_.window());
  }

  absl::StatusOr<space::Config> DefaultConfig(const space::ConfigSpace& space) const override {
    absl::StatusOr<topi::Conv2dTensors> t = s_.Conv2d();
    if (!t.ok()) return t.status();
    return topi::GpuConv2dKnobsFromConfig(space, topi::DefaultGpuConv2dConfig(*t));
  }

  absl::StatusOr<topi::ScheduledOp> Apply(const space::Config& config) const override {
    if (absl::Status st = config.space().CheckValid(config); !st.ok()) return st;
    absl::StatusOr<topi::GpuConv2dScheduleConfig> c = topi::GpuConv2dConfigFromKnobs(config);
    if (!c.ok()) return c.status();
    absl::StatusOr<topi::Conv2dTensors> t = s_.Conv2d();
    if (!t.ok()) return t.status();
    return topi::ScheduleGpuConv2d(*c, *t, s_.window());
  }

  std::optional<GpuLaunchShape> LaunchShape(const space::Config& config) const override {
    absl::StatusOr<topi::GpuConv2dScheduleConfig> c = topi::GpuConv2dConfigFromKnobs(config);
    if (!c.ok()) return std::nullopt;
    return GpuLaunchShape{c->Threads(), c->SharedBytes(s_.window(), s_.kh, s_.kw)};
  }

  absl::StatusOr<topi::ScheduledOp> Reference(const space::Config& config) const override {
    (void)config;
    absl::StatusOr<topi::Conv2dTensors> t = s_.Conv2d();
    if (!t.ok()) return t.status();
    return GpuConvReference(*t);
  }

  double Flops() const override { return s_.Flops(); }

 private:
  ConvShape s_;
};

class GpuDepthwiseConv2dTemplate final : public TaskTemplate {
 public:
  explicit GpuDepthwiseConv2dTemplate(ConvShape shape) : s_(shape) {}

  absl::Status DefineSpace(space::ConfigSpace& space) const override {
    absl::StatusOr<topi::DepthwiseConv2dTensors> t = s_.DepthwiseConv2d();
    if (!t.ok()) return t.status();
    return topi::DefineGpuDepthwiseConv2dKnobs(space, *t, s_.window());
  }

  absl::StatusOr<space::Config> DefaultConfig(const space::ConfigSpace& space) const override {
    absl::StatusOr<topi::DepthwiseConv2dTensors> t = s_.DepthwiseConv2d();
    if (!t.ok()) return t.status();
    return topi::GpuDepthwiseConv2dKnobsFromConfig(space,
                                                   topi::DefaultGpuDepthwiseConv2dConfig(*t));
  }

  absl::StatusOr<topi::ScheduledOp> Apply(const space::Config& config) const override {
    if (absl::Status st = config.space().CheckValid(config); !st.ok()) return st;
    absl::StatusOr<topi::GpuDepthwiseConv2dScheduleConfig> c =
        topi::GpuDepthwiseConv2dConfigFromKnobs(config);
    if (!c.ok()) return c.status();
    absl::StatusOr<topi::DepthwiseConv2dTensors> t = s_.DepthwiseConv2d();
    if (!t.ok()) return t.status();
    return topi::ScheduleGpuDepthwiseConv2d(*c, *t, s_.window());
  }

  std::optional<GpuLaunchShape> LaunchShape(const space::Config& config) const override {
    absl::StatusOr<topi::GpuDepthwiseConv2dScheduleConfig> c =
        topi::GpuDepthwiseConv2dConfigFromKnobs(config);
    if (!c.ok()) return std::nullopt;
    return GpuLaunchShape{c->Threads(), c->SharedBytes(s_.window(), s_.kh, s_.kw)};
  }

  absl::StatusOr<topi::ScheduledOp> Reference(const space::Config& config) const override {
    (void)config;
    absl::StatusOr<topi::DepthwiseConv2dTensors> t = s_.DepthwiseConv2d();
    if (!t.ok()) return t.status();
    return GpuConvReference(*t);
  }

  double Flops() const override { return s_.Flops(); }

 private:
  ConvShape s_;
};

}  // namespace

TemplateInfo GpuConv2dTemplateInfo() {
  return {"conv2d", "N,C,H,W,O,KH,KW,stride,pad",
          "direct conv2d on the GPU: shared-memory and register tiles, virtual threads (float32)",
          target::Target::Kind::kCuda};
}

TemplateInfo GpuDepthwiseConv2dTemplateInfo() {
  return {"depthwise_conv2d", "N,C,H,W,KH,KW,stride,pad",
          "depthwise conv2d on the GPU, NCHW data, [C][1][KH][KW] kernel (float32)",
          target::Target::Kind::kCuda};
}

std::unique_ptr<TaskTemplate> MakeGpuConv2dTemplate(const Workload& workload,
                                                    const topi::CpuInfo& cpu, absl::Status& error) {
  (void)cpu;
  absl::StatusOr<ConvShape> shape = ParseConvShape(workload, GpuConv2dTemplateInfo());
  if (!shape.ok()) {
    error = shape.status();
    return nullptr;
  }
  return std::make_unique<GpuConv2dTemplate>(*shape);
}

std::unique_ptr<TaskTemplate> MakeGpuDepthwiseConv2dTemplate(const Workload& workload,
                                                             const topi::CpuInfo& cpu,
                                                             absl::Status& error) {
  (void)cpu;
  absl::StatusOr<ConvShape> shape = ParseConvShape(workload, GpuDepthwiseConv2dTemplateInfo());
  if (!shape.ok()) {
    error = shape.status();
    return nullptr;
  }
  return std::make_unique<GpuDepthwiseConv2dTemplate>(*shape);
}

}  // namespace tunefarm::tuner::templates
