#include "tuner/templates/conv2d_int8_template.h"

#include <vector>

#include "compiler/topi/common_knobs.h"
#include "compiler/topi/conv2d_int8.h"
#include "compiler/topi/dense_int8.h"
#include "tuner/templates/conv_shape.h"

namespace tunefarm::tuner::templates {
namespace {

class Conv2dInt8Template final : public TaskTemplate {
 public:
  Conv2dInt8Template(ConvShape shape, topi::CpuInfo cpu) : s_(shape), cpu_(std::move(cpu)) {}

  // reg_w: the register tile's output columns (each one accumulator vector); parallel.
  absl::Status DefineSpace(space::ConfigSpace& space) const override {
    absl::StatusOr<topi::Conv2dInt8Tensors> t = Compute();
    if (!t.ok()) return t.status();
    const topi::Conv2dInt8Config def = topi::DefaultConv2dInt8Config(*t, cpu_);
    const int registers = cpu_.vector_registers;
    const std::vector<int64_t> reg_w =
        topi::KnobValues({1, 2, 4, 7, 8, 14, 16, 28}, def.reg_w,
                         [&](int64_t v) { return v <= s_.ow && v + 2 <= registers; });
    if (absl::Status st = topi::DefineIntKnob(space, "reg_w", reg_w); !st.ok()) return st;
    return topi::DefineFlagKnob(space, "parallel", true, def.parallel);
  }

  absl::StatusOr<space::Config> DefaultConfig(const space::ConfigSpace& space) const override {
    absl::StatusOr<topi::Conv2dInt8Tensors> t = Compute();
    if (!t.ok()) return t.status();
    const topi::Conv2dInt8Config def = topi::DefaultConv2dInt8Config(*t, cpu_);
    return topi::NearestConfig(space, {{"reg_w", def.reg_w}, {"parallel", int64_t{def.parallel}}},
                               "conv2d_int8 knobs");
  }

  absl::StatusOr<topi::ScheduledOp> Apply(const space::Config& config) const override {
    if (absl::Status st = config.space().CheckValid(config); !st.ok()) return st;
    topi::KnobReader r(config);
    topi::Conv2dInt8Config c;
    c.reg_w = r.Int("reg_w");
    c.parallel = r.Flag("parallel");
    if (!r.ok()) return r.status();
    absl::StatusOr<topi::Conv2dInt8Tensors> t = Compute();
    if (!t.ok()) return t.status();
    return topi::ScheduleConv2dInt8(c, *t);
  }

  // The same arguments computed by the plain loop nest (the layout is the task's, not a knob's).
  absl::StatusOr<topi::ScheduledOp> Reference(const space::Config& config) const override {
    (void)config;
    absl::StatusOr<topi::Conv2dInt8Tensors> t = Compute();
    if (!t.ok()) return t.status();
    return topi::ScheduledOp{schedule::Schedule::Create({t->out.op()}),
                             {t->data, t->kernel, t->out}};
  }

  double Flops() const override { return s_.Flops(); }

 private:
  absl::StatusOr<topi::Conv2dInt8Tensors> Compute() const {
    const int64_t ic_block = s_.c % 16 == 0 ? 16 : s_.c % 8 == 0 ? 8 : 4;
    const int64_t lanes = topi::DefaultDenseInt8Config(1, 1, 4, cpu_).lanes;
    auto i32 = [](int64_t v) { return ir::Expr(static_cast<int>(v)); };
    const int64_t cb = (s_.c + ic_block - 1) / ic_block, ob = (s_.o + lanes - 1) / lanes;
    te::Tensor data = te::placeholder({i32(s_.n), i32(cb), i32(s_.h), i32(s_.w), i32(ic_block)},
                                      ir::DataType::UInt(8), "data");
    te::Tensor kernel = te::placeholder(
        {i32(ob), i32(cb), i32(s_.kh), i32(s_.kw), i32(ic_block / 4), i32(lanes), 4},
        ir::DataType::Int(8), "kernel");
    return topi::Conv2dInt8Compute(data, kernel, s_.window());
  }

  ConvShape s_;
  topi::CpuInfo cpu_;
};

}  // namespace

TemplateInfo Conv2dInt8TemplateInfo() {
  return {"conv2d_int8", "N,C,H,W,O,KH,KW,stride,pad",
          "int8 conv2d (dtype int8): uint8 data NCHW[c], int8 kernel packed for the CPU's dot "
          "product, int32 output NCHW[L]"};
}

std::unique_ptr<TaskTemplate> MakeConv2dInt8Template(const Workload& workload,
                                                     const topi::CpuInfo& cpu,
                                                     absl::Status& error) {
  absl::StatusOr<ConvShape> shape = ParseConvShape(workload, Conv2dInt8TemplateInfo(), "int8");
  if (!shape.ok()) {
    error = shape.status();
    return nullptr;
  }
  error = absl::OkStatus();
  return std::make_unique<Conv2dInt8Template>(*shape, cpu);
}

}  // namespace tunefarm::tuner::templates
