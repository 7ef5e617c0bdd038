#include "tuner/templates/conv2d_winograd_template.h"

#include <vector>

#include "absl/strings/str_cat.h"
#include "compiler/topi/conv2d_winograd.h"
#include "compiler/topi/conv2d_winograd_knobs.h"
#include "compiler/topi/static_shape.h"
#include "tuner/templates/conv_shape.h"
#include "tuner/templates/template_args.h"

namespace tunefarm::tuner::templates {
namespace {

class Conv2dWinogradNchwcTemplate final : public TaskTemplate {
 public:
  Conv2dWinogradNchwcTemplate(ConvShape shape, topi::NchwcBlocks blocks, topi::CpuInfo cpu)
      : s_(shape), blocks_(blocks), cpu_(std::move(cpu)) {}

  absl::Status DefineSpace(space::ConfigSpace& space) const override {
    return topi::DefineConv2dWinogradKnobs(space, blocks_.oc_block, cpu_);
  }

  absl::StatusOr<space::Config> DefaultConfig(const space::ConfigSpace& space) const override {
    return topi::Conv2dWinogradKnobsFromConfig(space, topi::DefaultConv2dWinogradConfig(4, cpu_));
  }

  absl::StatusOr<topi::ScheduledOp> Apply(const space::Config& config) const override {
    if (absl::Status st = config.space().CheckValid(config); !st.ok()) return st;
    absl::StatusOr<topi::Conv2dWinogradScheduleConfig> c =
        topi::Conv2dWinogradConfigFromKnobs(config, cpu_);
    if (!c.ok()) return c.status();
    absl::StatusOr<topi::Conv2dWinogradTensors> t = Compute(c->tile);
    if (!t.ok()) return t.status();
    return topi::ScheduleConv2dWinograd(*c, *t);
  }

  // The same transforms unscheduled: what the schedule must not change.
  absl::StatusOr<topi::ScheduledOp> Reference(const space::Config& config) const override {
    absl::StatusOr<topi::Conv2dWinogradScheduleConfig> c =
        topi::Conv2dWinogradConfigFromKnobs(config, cpu_);
    if (!c.ok()) return c.status();
    absl::StatusOr<topi::Conv2dWinogradTensors> t = Compute(c->tile);
    if (!t.ok()) return t.status();
    return topi::ScheduledOp{schedule::Schedule::Create({t->out.op()}),
                             {t->data, t->weight, t->out}};
  }

  std::string ReferenceKey(const space::Config& config) const override {
    absl::StatusOr<int64_t> tile = config.ChoiceInt("tile");
    return tile.ok() ? absl::StrCat("m", *tile) : "";
  }

  double Flops() const override { return s_.Flops(); }

 private:
  absl::StatusOr<topi::Conv2dWinogradTensors> Compute(int64_t tile) const {
    absl::StatusOr<topi::WinogradMatrices> w =
        topi::MakeWinogradMatrices(static_cast<int>(tile), 3);
    if (!w.ok()) return w.status();
    const int64_t ic = blocks_.ic_block, oc = blocks_.oc_block, alpha = w->alpha;
    const int64_t cb = topi::CeilDiv(s_.c, ic), ob = topi::CeilDiv(s_.o, oc);
    return topi::Conv2dWinogradCompute(Float32Placeholder({s_.n, cb, s_.h, s_.w, ic}, "data"),
                                       Float32Placeholder({alpha, alpha, ob, cb, ic, oc}, "weight"),
                                       s_.pad, *w);
  }

  ConvShape s_;
  topi::NchwcBlocks blocks_;
  topi::CpuInfo cpu_;
};

}  // namespace

TemplateInfo Conv2dWinogradNchwcTemplateInfo() {
  return {"conv2d_winograd_nchwc", "N,C,H,W,O,KH,KW,stride,pad",
          "Winograd conv2d F(m x m, 3x3) in blocked NCHW[ic]c layouts, two more arguments "
          "ic_block,oc_block fixing them; 3x3, stride 1, pad 0 or 1; m (2, 4, 6) tuned (float32)"};
}

std::unique_ptr<TaskTemplate> MakeConv2dWinogradNchwcTemplate(const Workload& workload,
                                                              const topi::CpuInfo& cpu,
                                                              absl::Status& error) {
  const TemplateInfo info = Conv2dWinogradNchwcTemplateInfo();
  absl::StatusOr<BlockedConvShape> shape = ParseBlockedConvShape(workload, info);
  if (!shape.ok()) {
    error = shape.status();
    return nullptr;
  }
  const ConvShape& s = shape->shape;
  if (!shape->blocks || s.kh != 3 || s.kw != 3 || s.stride != 1 || s.pad > 1) {
    error = WorkloadError(
        workload, absl::InvalidArgumentError(
                      "conv2d_winograd_nchwc takes a 3x3 conv of stride 1 and pad 0 or 1, with "
                      "its blocks: N,C,H,W,O,3,3,1,pad,ic_block,oc_block"));
    return nullptr;
  }
  return std::make_unique<Conv2dWinogradNchwcTemplate>(s, *shape->blocks, cpu);
}

}  // namespace tunefarm::tuner::templates
