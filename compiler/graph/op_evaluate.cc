#include "compiler/graph/op_evaluate.h"

#include "absl/strings/str_cat.h"
#include "compiler/codegen/llvm/build.h"
#include "compiler/graph/op_compute.h"
#include "compiler/graph/op_registry.h"
#include "compiler/passes/lower.h"
#include "compiler/target/target.h"
#include "compiler/topi/cpu_info.h"
#include "compiler/topi/default_schedule.h"

namespace tunefarm::graph {
namespace {

absl::Status Failed(const Node& node, const char* step, const absl::Status& status) {
  return absl::InternalError(absl::StrCat(std::string(OpName(node.op)), " node '", node.name,
                                          "': ", step, ": ", status.message()));
}

const topi::CpuInfo& HostCpu() {
  static const topi::CpuInfo cpu = topi::DetectHostCpu();
  return cpu;
}

}  // namespace

absl::StatusOr<std::vector<runtime::NDArray>> EvaluateOp(
    const Node& node, const std::vector<const runtime::NDArray*>& inputs) {
  std::vector<TensorType> input_types;
  for (const runtime::NDArray* in : inputs) input_types.push_back({in->dtype(), in->shape()});
  absl::StatusOr<std::vector<TensorType>> output_types = InferOutputTypes(node, input_types);
  if (!output_types.ok()) return output_types.status();
  std::vector<runtime::NDArray> results;
  bool any_elements = false;
  for (const TensorType& type : *output_types) {
    absl::StatusOr<runtime::NDArray> array = runtime::NDArray::Empty(type.shape, type.dtype);
    if (!array.ok()) return array.status();
    any_elements = any_elements || array->NumElements() > 0;
    results.push_back(*std::move(array));
  }
  // Nothing to compute (topi's computes take no empty tensors): the empty arrays are the result.
  if (!any_elements) return results;
  std::vector<te::Tensor> placeholders;
  std::vector<runtime::PackedArg> args;
  for (size_t i = 0; i < inputs.size(); ++i) {
    placeholders.push_back(PlaceholderOf(input_types[i], absl::StrCat("in", i)));
    // Kernels only read their inputs; the calling convention has no const tensors.
    args.push_back(const_cast<DLTensor*>(inputs[i]->dl()));
  }
  absl::StatusOr<OpTensors> tensors = ComputeOp(node, placeholders);
  if (!tensors.ok()) return tensors.status();
  // Outputs with no elements keep their empty arrays and get no place in the kernel.
  std::vector<te::Tensor> computed;
  for (size_t i = 0; i < results.size(); ++i) {
    if (results[i].NumElements() == 0) continue;
    computed.push_back(tensors->outputs[i]);
    args.push_back(&results[i]);
  }
  absl::StatusOr<topi::ScheduledOp> op = topi::ScheduleDefault(placeholders, computed, HostCpu());
  if (!op.ok()) return Failed(node, "schedule", op.status());
  const target::Target& host = target::Target::Host();
  passes::PassOptions options;
  options.target = host.lowering();
  absl::StatusOr<ir::PrimFunc> f = passes::Lower(op->schedule, op->args, "evaluate_op", options);
  if (!f.ok()) return Failed(node, "lower", f.status());
  absl::StatusOr<std::shared_ptr<runtime::Module>> module = codegen::BuildJit({*f}, host.llvm());
  if (!module.ok()) return Failed(node, "build", module.status());
  absl::StatusOr<runtime::PackedFunction> kernel = (*module)->GetFunction(f->name);
  if (!kernel.ok()) return Failed(node, "load", kernel.status());
  absl::Status run = kernel->Call(args);
  if (!run.ok()) return Failed(node, "run", run);
  return results;
}

}  // namespace tunefarm::graph
