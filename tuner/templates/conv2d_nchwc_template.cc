// The arguments are data[N][ceil(C/ic)][H][W][ic], kernel[ceil(O/oc)][ceil(C/ic)][KH][KW][ic][oc]
// and out[N][ceil(O/oc)][OH][OW][oc] (channels past C and O are zero padding, as the layout
// transforms make them), so configs with other blocks need another reference run.
#include "tuner/templates/conv2d_nchwc_template.h"

#include <optional>
#include <vector>

#include "absl/strings/str_cat.h"
#include "compiler/topi/conv2d_nchwc.h"
#include "compiler/topi/conv2d_nchwc_knobs.h"
#include "compiler/topi/static_shape.h"
#include "tuner/templates/conv_shape.h"
#include "tuner/templates/template_args.h"

namespace tunefarm::tuner::templates {
namespace {

class Conv2dNchwcTemplate final : public TaskTemplate {
 public:
  Conv2dNchwcTemplate(BlockedConvShape shape, topi::CpuInfo cpu)
      : s_(shape.shape), blocks_(shape.blocks), cpu_(std::move(cpu)) {}

  absl::Status DefineSpace(space::ConfigSpace& space) const override {
    return topi::DefineConv2dNchwcKnobs(space, DataShape(), KernelShape(), s_.window(), cpu_,
                                        blocks_);
  }

  absl::StatusOr<space::Config> DefaultConfig(const space::ConfigSpace& space) const override {
    return topi::Conv2dNchwcKnobsFromConfig(
        space,
        topi::DefaultConv2dNchwcConfig(DataShape(), KernelShape(), s_.window(), cpu_, blocks_));
  }

  absl::StatusOr<topi::ScheduledOp> Apply(const space::Config& config) const override {
    if (absl::Status st = config.space().CheckValid(config); !st.ok()) return st;
    absl::StatusOr<topi::Conv2dNchwcScheduleConfig> c =
        topi::Conv2dNchwcConfigFromKnobs(config, cpu_);
    if (!c.ok()) return c.status();
    absl::StatusOr<topi::Conv2dNchwcTensors> t = Compute(c->ic_block, c->oc_block);
    if (!t.ok()) return t.status();
    return topi::ScheduleConv2dNchwc(*c, *t);
  }

  absl::StatusOr<topi::ScheduledOp> Reference(const space::Config& config) const override {
    absl::StatusOr<topi::Conv2dNchwcScheduleConfig> c =
        topi::Conv2dNchwcConfigFromKnobs(config, cpu_);
    if (!c.ok()) return c.status();
    absl::StatusOr<topi::Conv2dNchwcTensors> t = Compute(c->ic_block, c->oc_block);
    if (!t.ok()) return t.status();
    return topi::ScheduledOp{schedule::Schedule::Create({t->out.op()}),
                             {t->data, t->kernel, t->out}};
  }

  std::string ReferenceKey(const space::Config& config) const override {
    absl::StatusOr<topi::Conv2dNchwcScheduleConfig> c =
        topi::Conv2dNchwcConfigFromKnobs(config, cpu_);
    if (!c.ok()) return "";
    return absl::StrCat("ic", c->ic_block, ",oc", c->oc_block);
  }

  double Flops() const override { return s_.Flops(); }

 private:
  std::vector<int64_t> DataShape() const { return {s_.n, s_.c, s_.h, s_.w}; }
  std::vector<int64_t> KernelShape() const { return {s_.o, s_.c, s_.kh, s_.kw}; }

  absl::StatusOr<topi::Conv2dNchwcTensors> Compute(int64_t ic, int64_t oc) const {
    const int64_t cb = topi::CeilDiv(s_.c, ic), ob = topi::CeilDiv(s_.o, oc);
    return topi::Conv2dNchwcCompute(Float32Placeholder({s_.n, cb, s_.h, s_.w, ic}, "data"),
                                    Float32Placeholder({ob, cb, s_.kh, s_.kw, ic, oc}, "kernel"),
                                    s_.window());
  }

  ConvShape s_;
  std::optional<topi::NchwcBlocks> blocks_;  // fixed by the workload, else knobs
  topi::CpuInfo cpu_;
};

}  // namespace

TemplateInfo Conv2dNchwcTemplateInfo() {
  return {"conv2d_nchwc", "N,C,H,W,O,KH,KW,stride,pad",
          "conv2d in blocked NCHW[ic]c / OIHW[ic]i[oc]o layouts, the blocks tuned, or fixed by two "
          "more arguments ic_block,oc_block as a model's layout fixes them (float32)"};
}

std::unique_ptr<TaskTemplate> MakeConv2dNchwcTemplate(const Workload& workload,
                                                      const topi::CpuInfo& cpu,
                                                      absl::Status& error) {
  absl::StatusOr<BlockedConvShape> shape =
      ParseBlockedConvShape(workload, Conv2dNchwcTemplateInfo());
  if (!shape.ok()) {
    error = shape.status();
    return nullptr;
  }
  return std::make_unique<Conv2dNchwcTemplate>(*shape, cpu);
}

}  // namespace tunefarm::tuner::templates
