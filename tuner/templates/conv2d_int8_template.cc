#include "tuner/templates/conv2d_int8_template.h"

#include <vector>

#include "absl/strings/str_cat.h"
#include "compiler/topi/conv2d_int8_knobs.h"
#include "compiler/topi/dense_int8.h"
#include "tuner/templates/conv_shape.h"

namespace tunefarm::tuner::templates {
namespace {

// The blocks: the workload's, else c the largest of 16, 8, 4 that divides C and the CPU's lanes.
absl::StatusOr<topi::Conv2dInt8Tensors> ComputeInt8Conv(const BlockedConvShape& b,
                                                        const topi::CpuInfo& cpu) {
  const ConvShape& s = b.shape;
  const int64_t lanes = topi::DefaultDenseInt8Config(1, 1, 4, cpu).lanes;
  int64_t ic_block = s.c % 16 == 0 ? 16 : s.c % 8 == 0 ? 8 : 4;
  if (b.blocks) {
    if (b.blocks->ic_block % 4 != 0 || b.blocks->oc_block != lanes) {
      return absl::InvalidArgumentError(absl::StrCat("conv2d_int8: ic_block ", b.blocks->ic_block,
                                                     " must be a multiple of 4 and lanes ",
                                                     b.blocks->oc_block, " this CPU's ", lanes));
    }
    ic_block = b.blocks->ic_block;
  }
  auto i32 = [](int64_t v) { return ir::Expr(static_cast<int>(v)); };
  const int64_t cb = (s.c + ic_block - 1) / ic_block, ob = (s.o + lanes - 1) / lanes;
  te::Tensor data = te::placeholder({i32(s.n), i32(cb), i32(s.h), i32(s.w), i32(ic_block)},
                                    ir::DataType::UInt(8), "data");
  te::Tensor kernel =
      te::placeholder({i32(ob), i32(cb), i32(s.kh), i32(s.kw), i32(ic_block / 4), i32(lanes), 4},
                      ir::DataType::Int(8), "kernel");
  return topi::Conv2dInt8Compute(data, kernel, s.window());
}

class Conv2dInt8Template final : public TaskTemplate {
 public:
  Conv2dInt8Template(topi::Conv2dInt8Tensors t, double flops, topi::CpuInfo cpu)
      : t_(std::move(t)), flops_(flops), cpu_(std::move(cpu)) {}

  absl::Status DefineSpace(space::ConfigSpace& space) const override {
    return topi::DefineConv2dInt8Knobs(space, t_, cpu_);
  }

  absl::StatusOr<space::Config> DefaultConfig(const space::ConfigSpace& space) const override {
    return topi::Conv2dInt8KnobsFromConfig(space, topi::DefaultConv2dInt8Config(t_, cpu_));
  }

  absl::StatusOr<topi::ScheduledOp> Apply(const space::Config& config) const override {
    if (absl::Status st = config.space().CheckValid(config); !st.ok()) return st;
    absl::StatusOr<topi::Conv2dInt8Config> c = topi::Conv2dInt8ConfigFromKnobs(config);
    if (!c.ok()) return c.status();
    return topi::ScheduleConv2dInt8(*c, t_);
  }

  // The same arguments computed by the plain loop nest (the layout is the task's, not a knob's).
  absl::StatusOr<topi::ScheduledOp> Reference(const space::Config& config) const override {
    (void)config;
    return topi::ScheduledOp{schedule::Schedule::Create({t_.out.op()}),
                             {t_.data, t_.kernel, t_.out}};
  }

  double Flops() const override { return flops_; }

 private:
  topi::Conv2dInt8Tensors t_;
  double flops_;
  topi::CpuInfo cpu_;
};

absl::StatusOr<BlockedConvShape> ParseInt8Conv(const Workload& workload) {
  return ParseBlockedConvShape(workload, Conv2dInt8TemplateInfo(), "int8");
}

}  // namespace

TemplateInfo Conv2dInt8TemplateInfo() {
  return {"conv2d_int8", "N,C,H,W,O,KH,KW,stride,pad",
          "int8 conv2d (dtype int8): uint8 data NCHW[c], int8 kernel packed for the CPU's dot "
          "product, int32 output NCHW[L]; a model's task adds its blocks (...,ic_block,lanes)"};
}

absl::StatusOr<topi::Conv2dInt8Tensors> Conv2dInt8WorkloadTensors(const Workload& workload,
                                                                  const topi::CpuInfo& cpu) {
  absl::StatusOr<BlockedConvShape> shape = ParseInt8Conv(workload);
  if (!shape.ok()) return shape.status();
  return ComputeInt8Conv(*shape, cpu);
}

std::unique_ptr<TaskTemplate> MakeConv2dInt8Template(const Workload& workload,
                                                     const topi::CpuInfo& cpu,
                                                     absl::Status& error) {
  absl::StatusOr<BlockedConvShape> shape = ParseInt8Conv(workload);
  absl::StatusOr<topi::Conv2dInt8Tensors> t =
      shape.ok() ? ComputeInt8Conv(*shape, cpu) : shape.status();
  if (!t.ok()) {
    error = t.status();
    return nullptr;
  }
  error = absl::OkStatus();
  return std::make_unique<Conv2dInt8Template>(*std::move(t), shape->shape.Flops(), cpu);
}

}  // namespace tunefarm::tuner::templates
