#include "compiler/graph/op_compute.h"

#include <array>

#include "absl/strings/str_cat.h"
#include "compiler/graph/op_compute_impl.h"
#include "compiler/ir/op.h"
#include "runtime/data_type.h"

namespace tunefarm::graph {
namespace {

using ComputeFn = ComputeResult (*)(const ComputeContext&);

constexpr std::array kComputes = {
#define TF_COMPUTE_FN(Name, text, pattern) &Compute##Name,
    TF_GRAPH_OPS(TF_COMPUTE_FN)
#undef TF_COMPUTE_FN
};

absl::StatusOr<ir::DataType> IrType(DLDataType t) {
  std::optional<ir::DataType> dt = ir::DataType::Parse(runtime::DataTypeToString(t));
  if (!dt) {
    return absl::InvalidArgumentError(
        absl::StrCat("dtype ", runtime::DataTypeToString(t), " has no IR type"));
  }
  return *dt;
}

}  // namespace

absl::Status ComputeContext::Error(const std::string& message) const {
  return absl::InvalidArgumentError(
      absl::StrCat(std::string(OpName(node.op)), " node '", node.name, "': ", message));
}

absl::Status ComputeContext::Annotate(const absl::Status& status) const {
  if (status.ok()) return status;
  return absl::Status(status.code(), absl::StrCat(std::string(OpName(node.op)), " node '",
                                                  node.name, "': ", status.message()));
}

ComputeResult One(const ComputeContext& ctx, const absl::StatusOr<te::Tensor>& t,
                  std::vector<te::Tensor> stages) {
  if (!t.ok()) return ctx.Annotate(t.status());
  OpTensors result;
  result.outputs.push_back(*t);
  for (te::Tensor& stage : stages) {
    bool input = false;
    for (const te::Tensor& in : ctx.inputs) input = input || in.same_as(stage);
    if (stage.defined() && !input && !stage.same_as(*t)) result.stages.push_back(std::move(stage));
  }
  return result;
}

absl::StatusOr<int64_t> IntAttr(const ComputeContext& ctx, const char* name, int64_t fallback) {
  absl::StatusOr<int64_t> v = ctx.node.attrs.Int(name, fallback);
  if (!v.ok()) return ctx.Annotate(v.status());
  return v;
}

absl::StatusOr<double> FloatAttr(const ComputeContext& ctx, const char* name, double fallback) {
  absl::StatusOr<double> v = ctx.node.attrs.Float(name, fallback);
  if (!v.ok()) return ctx.Annotate(v.status());
  return v;
}

absl::StatusOr<std::vector<int64_t>> IntsAttr(const ComputeContext& ctx, const char* name,
                                              std::vector<int64_t> fallback) {
  absl::StatusOr<std::vector<int64_t>> v = ctx.node.attrs.Ints(name, std::move(fallback));
  if (!v.ok()) return ctx.Annotate(v.status());
  return v;
}

int NormalizedAxis(int64_t axis, int rank) {
  return static_cast<int>(axis < 0 ? axis + rank : axis);
}

absl::StatusOr<TensorType> TypeOfTensor(const te::Tensor& t) {
  if (!t.defined()) return absl::InvalidArgumentError("undefined tensor");
  TensorType type;
  absl::StatusOr<DLDataType> dt = runtime::ParseDataType(t.dtype().ToString());
  if (!dt.ok()) return dt.status();
  type.dtype = *dt;
  for (const ir::Expr& e : t.shape()) {
    std::optional<int64_t> d = ir::AsConstInt(e);
    if (!d) {
      return absl::InvalidArgumentError(
          absl::StrCat("tensor ", t.name(), " has a symbolic shape; graph values are static"));
    }
    type.shape.push_back(*d);
  }
  return type;
}

te::Tensor PlaceholderOf(const TensorType& type, const std::string& name) {
  std::vector<ir::Expr> shape;
  for (int64_t d : type.shape) shape.push_back(ir::IntImm(ir::DataType::Int(32), d));
  absl::StatusOr<ir::DataType> dt = IrType(type.dtype);
  return te::placeholder(shape, dt.ok() ? *dt : ir::DataType::Float(32), name);
}

absl::StatusOr<OpTensors> ComputeOp(const Node& node, const std::vector<te::Tensor>& inputs,
                                    const ComputeOptions& options) {
  std::vector<TensorType> input_types;
  for (size_t i = 0; i < inputs.size(); ++i) {
    absl::StatusOr<TensorType> t = TypeOfTensor(inputs[i]);
    if (!t.ok()) {
      return absl::InvalidArgumentError(absl::StrCat(std::string(OpName(node.op)), " node '",
                                                     node.name, "': input ", i, ": ",
                                                     t.status().message()));
    }
    input_types.push_back(*std::move(t));
  }
  absl::StatusOr<std::vector<TensorType>> output_types = InferOutputTypes(node, input_types);
  if (!output_types.ok()) return output_types.status();
  ComputeContext ctx{node, inputs, input_types, *output_types, options};
  ComputeResult result = kComputes[static_cast<size_t>(node.op)](ctx);
  if (!result.ok()) return result;
  // Inference is the contract: a compute that disagrees with it is a bug here, said as such.
  const std::vector<te::Tensor>& outputs = result->outputs;
  bool agree = outputs.size() == output_types->size();
  for (size_t i = 0; agree && i < outputs.size(); ++i) {
    absl::StatusOr<TensorType> t = TypeOfTensor(outputs[i]);
    agree = t.ok() && *t == (*output_types)[i];
  }
  if (!agree) {
    return absl::InternalError(absl::StrCat(std::string(OpName(node.op)), " node '", node.name,
                                            "': the compute's outputs disagree with inference"));
  }
  return result;
}

}  // namespace tunefarm::graph
