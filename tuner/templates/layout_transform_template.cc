#include "tuner/templates/layout_transform_template.h"

#include <vector>

#include "absl/strings/str_cat.h"
#include "compiler/topi/common_knobs.h"
#include "compiler/topi/default_schedule.h"
#include "compiler/topi/layout_transform.h"
#include "compiler/topi/static_shape.h"
#include "tuner/templates/conv_shape.h"
#include "tuner/templates/template_args.h"

namespace tunefarm::tuner::templates {
namespace {

struct TransformShape {
  int64_t n = 0, c = 0, h = 0, w = 0, from = 0, to = 0;
};

class LayoutTransformTemplate final : public TaskTemplate {
 public:
  LayoutTransformTemplate(TransformShape shape, topi::CpuInfo cpu)
      : s_(shape), cpu_(std::move(cpu)) {}

  // The build schedules the fused transform by topi's default and nothing configures it, so the
  // space is that one schedule: a single knob with a single value.
  absl::Status DefineSpace(space::ConfigSpace& space) const override {
    return topi::DefineFlagKnob(space, "default_schedule", false, true);
  }

  absl::StatusOr<space::Config> DefaultConfig(const space::ConfigSpace& space) const override {
    return space.Get(0);
  }

  absl::StatusOr<topi::ScheduledOp> Apply(const space::Config& config) const override {
    if (absl::Status st = config.space().CheckValid(config); !st.ok()) return st;
    absl::StatusOr<Tensors> t = Compute();
    if (!t.ok()) return t.status();
    return topi::ScheduleDefault({t->in}, {t->out}, cpu_);
  }

  absl::StatusOr<topi::ScheduledOp> Reference(const space::Config& config) const override {
    (void)config;
    absl::StatusOr<Tensors> t = Compute();
    if (!t.ok()) return t.status();
    return topi::ScheduledOp{schedule::Schedule::Create({t->out.op()}), {t->in, t->out}};
  }

  // Not floating-point work: the elements written, so that "GFLOPS" reads as elements per second.
  double Flops() const override {
    return static_cast<double>(s_.n) * topi::CeilDiv(s_.c, s_.to) * s_.to * s_.h * s_.w;
  }

 private:
  // The NCHW stage between them too: a compute refers to its producers weakly, so it must live
  // until the schedule holds it.
  struct Tensors {
    te::Tensor in, nchw, out;
  };

  absl::StatusOr<Tensors> Compute() const {
    te::Tensor in =
        Float32Placeholder({s_.n, topi::CeilDiv(s_.c, s_.from), s_.h, s_.w, s_.from}, "data");
    absl::StatusOr<te::Tensor> nchw = topi::NchwcToNchwCompute(in, s_.c);
    if (!nchw.ok()) return nchw.status();
    absl::StatusOr<te::Tensor> out = topi::NchwToNchwcCompute(*nchw, s_.to);
    if (!out.ok()) return out.status();
    return Tensors{in, *nchw, *out};
  }

  TransformShape s_;
  topi::CpuInfo cpu_;
};

}  // namespace

TemplateInfo LayoutTransformTemplateInfo() {
  return {"layout_transform", "N,C,H,W,from_block,to_block",
          "a value of C channels from NCHW[from]c to NCHW[to]c, as a model build transforms it "
          "(timed for the graph-level layout choice; float32)"};
}

std::unique_ptr<TaskTemplate> MakeLayoutTransformTemplate(const Workload& workload,
                                                          const topi::CpuInfo& cpu,
                                                          absl::Status& error) {
  const TemplateInfo info = LayoutTransformTemplateInfo();
  if (error = CheckWorkloadArgs(workload, info); !error.ok()) return nullptr;
  const std::vector<int64_t>& a = workload.args;
  const TransformShape s{a[0], a[1], a[2], a[3], a[4], a[5]};
  if (s.from > kMaxChannelBlock || s.to > kMaxChannelBlock || s.from == s.to) {
    error = WorkloadError(workload, absl::InvalidArgumentError(absl::StrCat(
                                        "the blocks must differ and be at most ", kMaxChannelBlock,
                                        " (from ", s.from, ", to ", s.to, ")")));
    return nullptr;
  }
  for (const auto& [name, shape] :
       {std::pair<const char*, std::vector<int64_t>>{
            "data", {s.n, topi::CeilDiv(s.c, s.from), s.h, s.w, s.from}},
        {"out", {s.n, topi::CeilDiv(s.c, s.to), s.h, s.w, s.to}}}) {
    if (error = CheckTensorSize(workload, name, shape); !error.ok()) return nullptr;
  }
  return std::make_unique<LayoutTransformTemplate>(s, cpu);
}

}  // namespace tunefarm::tuner::templates
