#include "bench/support/our_kernels.h"

#include <cstring>
#include <random>
#include <vector>

#include "absl/strings/str_cat.h"
#include "compiler/codegen/llvm/build.h"
#include "compiler/passes/lower.h"
#include "compiler/topi/conv2d_int8.h"
#include "compiler/topi/conv2d_nchwc.h"
#include "compiler/topi/dense_int8.h"
#include "compiler/topi/depthwise_conv2d.h"
#include "compiler/topi/gemm.h"
#include "compiler/topi/gemm_schedule.h"
#include "runtime/data_type.h"

namespace tunefarm::bench {
namespace {

te::Tensor Input(std::vector<int64_t> shape, const std::string& name) {
  std::vector<ir::Expr> dims;
  // int32 extents, as TE scripts declare them: index arithmetic stays 32-bit and vector
  // accesses stay contiguous ramps (an int64 cast of a ramp is not folded yet, so it would gather).
  for (int64_t d : shape) dims.push_back(ir::Expr(static_cast<int>(d)));
  return te::placeholder(dims, ir::DataType::Float(32), name);
}

struct KernelState {
  std::shared_ptr<runtime::Module> module;
  std::vector<runtime::NDArray> arrays;
};

// Lowers and JIT-compiles `op`, allocates its arguments (inputs random) and returns the call.
absl::StatusOr<OurKernel> Compile(const topi::ScheduledOp& op, const std::string& name,
                                  std::string config) {
  absl::StatusOr<ir::PrimFunc> func = passes::Lower(op.schedule, op.args, name);
  if (!func.ok()) return func.status();
  absl::StatusOr<codegen::LlvmTarget> target = codegen::ParseLlvmTarget("llvm");
  if (!target.ok()) return target.status();
  absl::StatusOr<std::shared_ptr<runtime::Module>> module = codegen::BuildJit({*func}, *target);
  if (!module.ok()) return module.status();
  absl::StatusOr<runtime::PackedFunction> kernel = (*module)->GetFunction(name);
  if (!kernel.ok()) return kernel.status();
  auto state = std::make_shared<KernelState>();
  state->module = *module;
  std::mt19937 rng(7);
  std::uniform_real_distribution<float> dist(-1.0f, 1.0f);
  std::uniform_int_distribution<int> byte(0, 255);
  for (const runtime::ArgSpec& spec : kernel->signature().args) {
    std::vector<int64_t> shape;
    for (const runtime::DimSpec& d : spec.shape) shape.push_back(d.value);
    absl::StatusOr<runtime::NDArray> array = runtime::NDArray::Empty(shape, spec.dtype);
    if (!array.ok()) return array.status();
    // Floats uniform in [-1, 1), bytes uniform over their range, anything else zero.
    if (runtime::SameDataType(spec.dtype, *runtime::ParseDataType("float32"))) {
      auto* data = static_cast<float*>(array->data());
      for (int64_t i = 0; i < array->NumElements(); ++i) data[i] = dist(rng);
    } else if (spec.dtype.bits == 8) {
      auto* data = static_cast<uint8_t*>(array->data());
      for (int64_t i = 0; i < array->NumElements(); ++i) data[i] = static_cast<uint8_t>(byte(rng));
    } else {
      std::memset(array->data(), 0, array->NumBytes());
    }
    state->arrays.push_back(*std::move(array));
  }
  KernelState* s = state.get();
  OurKernel out;
  out.config = std::move(config);
  out.run = [s, kernel = *kernel]() {
    std::vector<runtime::PackedArg> args;
    for (runtime::NDArray& a : s->arrays) args.emplace_back(&a);
    return kernel.Call(args);
  };
  out.state = std::move(state);
  return out;
}

}  // namespace

absl::StatusOr<OurKernel> OurScheduled(const topi::ScheduledOp& op, const std::string& name,
                                       std::string config) {
  return Compile(op, name, std::move(config));
}

absl::StatusOr<OurKernel> OurMatmul(int64_t m, int64_t n, int64_t k, const topi::CpuInfo& cpu) {
  topi::MatmulScheduleConfig config = topi::DefaultMatmulConfig(m, n, k, cpu);
  absl::StatusOr<topi::GemmTensors> t =
      topi::MatmulCompute(Input({m, k}, "A"), Input({k, n}, "B"), config.PackBlock());
  if (!t.ok()) return t.status();
  absl::StatusOr<topi::ScheduledOp> op = topi::ScheduleMatmul(config, *t);
  if (!op.ok()) return op.status();
  return Compile(*op, "matmul", config.ToString());
}

absl::StatusOr<OurKernel> OurDenseInt8(int64_t m, int64_t n, int64_t k, const topi::CpuInfo& cpu) {
  topi::DenseInt8Config config = topi::DefaultDenseInt8Config(m, n, k, cpu);
  const int64_t blocks = (n + config.lanes - 1) / config.lanes;
  te::Tensor a =
      te::placeholder({static_cast<int>(m), static_cast<int>(k)}, ir::DataType::UInt(8), "A");
  te::Tensor w = te::placeholder(
      {static_cast<int>(blocks), static_cast<int>(k / 4), static_cast<int>(config.lanes), 4},
      ir::DataType::Int(8), "Wp");
  absl::StatusOr<topi::DenseInt8Tensors> t = topi::DenseInt8Compute(a, w, n);
  if (!t.ok()) return t.status();
  absl::StatusOr<topi::ScheduledOp> op = topi::ScheduleDenseInt8(config, *t);
  if (!op.ok()) return op.status();
  return Compile(*op, "dense_int8", config.ToString());
}

absl::StatusOr<OurKernel> OurConv2dInt8(const ConvShape& s, const topi::CpuInfo& cpu) {
  if (s.groups != 1) return absl::InvalidArgumentError("conv2d_int8: groups must be 1");
  const int64_t ic_block = 16, lanes = topi::DefaultDenseInt8Config(1, 1, 4, cpu).lanes;
  auto i32 = [](int64_t v) { return ir::Expr(static_cast<int>(v)); };
  const int64_t cb = (s.in_channels + ic_block - 1) / ic_block;
  const int64_t ob = (s.out_channels + lanes - 1) / lanes;
  te::Tensor data =
      te::placeholder({i32(s.batch), i32(cb), i32(s.height), i32(s.width), i32(ic_block)},
                      ir::DataType::UInt(8), "data");
  te::Tensor kernel = te::placeholder(
      {i32(ob), i32(cb), i32(s.kernel), i32(s.kernel), i32(ic_block / 4), i32(lanes), 4},
      ir::DataType::Int(8), "kernel");
  absl::StatusOr<topi::Conv2dInt8Tensors> t =
      topi::Conv2dInt8Compute(data, kernel, topi::Window2d::Make(s.stride, s.pad));
  if (!t.ok()) return t.status();
  const topi::Conv2dInt8Config config = topi::DefaultConv2dInt8Config(*t, cpu);
  absl::StatusOr<topi::ScheduledOp> op = topi::ScheduleConv2dInt8(config, *t);
  if (!op.ok()) return op.status();
  return Compile(*op, "conv2d_int8", absl::StrCat("lanes ", lanes, ", ", config.ToString()));
}

absl::StatusOr<OurKernel> OurConv2d(const ConvShape& s, const topi::CpuInfo& cpu) {
  topi::Window2d window = topi::Window2d::Make(s.stride, s.pad);
  if (s.groups != 1) {
    if (s.groups != s.in_channels || s.groups != s.out_channels) {
      return absl::InvalidArgumentError("only depthwise grouped convolutions are benchmarked");
    }
    absl::StatusOr<topi::DepthwiseConv2dTensors> t = topi::DepthwiseConv2dCompute(
        Input({s.batch, s.in_channels, s.height, s.width}, "data"),
        Input({s.in_channels, 1, s.kernel, s.kernel}, "kernel"), window);
    if (!t.ok()) return t.status();
    topi::DepthwiseConv2dScheduleConfig config = topi::DefaultDepthwiseConv2dConfig(*t, cpu);
    absl::StatusOr<topi::ScheduledOp> op = topi::ScheduleDepthwiseConv2d(config, *t);
    if (!op.ok()) return op.status();
    return Compile(*op, "depthwise_conv2d", config.ToString());
  }
  topi::Conv2dNchwcScheduleConfig config = topi::DefaultConv2dNchwcConfig(
      {s.batch, s.in_channels, s.height, s.width},
      {s.out_channels, s.in_channels, s.kernel, s.kernel}, window, cpu);
  int64_t ic = config.ic_block, oc = config.oc_block;
  if (s.in_channels % ic != 0 || s.out_channels % oc != 0) {
    return absl::InvalidArgumentError(absl::StrCat(
        "channel blocks ", ic, "/", oc, " do not divide ", s.in_channels, "/", s.out_channels));
  }
  absl::StatusOr<topi::Conv2dNchwcTensors> t = topi::Conv2dNchwcCompute(
      Input({s.batch, s.in_channels / ic, s.height, s.width, ic}, "data"),
      Input({s.out_channels / oc, s.in_channels / ic, s.kernel, s.kernel, ic, oc}, "kernel"),
      window);
  if (!t.ok()) return t.status();
  absl::StatusOr<topi::ScheduledOp> op = topi::ScheduleConv2dNchwc(config, *t);
  if (!op.ok()) return op.status();
  return Compile(*op, "conv2d_nchwc", config.ToString());
}

}  // namespace tunefarm::bench
