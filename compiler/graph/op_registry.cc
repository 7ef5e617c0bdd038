#include "compiler/graph/op_registry.h"

#include <array>

#include "absl/strings/str_cat.h"
#include "compiler/graph/op_inference.h"

namespace tunefarm::graph {
namespace {

constexpr std::array kOps = {
#define TF_OP_INFO(Name, text, pattern) \
  OpInfo{OpKind::k##Name, text, PatternKind::pattern, &Infer##Name},
    TF_GRAPH_OPS(TF_OP_INFO)
#undef TF_OP_INFO
};

}  // namespace

std::string_view PatternKindName(PatternKind kind) {
  switch (kind) {
    case PatternKind::kElementwise:
      return "elementwise";
    case PatternKind::kBroadcast:
      return "broadcast";
    case PatternKind::kInjective:
      return "injective";
    case PatternKind::kCommReduce:
      return "comm_reduce";
    case PatternKind::kOutEWiseFusable:
      return "out_ewise_fusable";
    case PatternKind::kOpaque:
      return "opaque";
  }
  return "unknown";
}

absl::Status InferContext::Error(const std::string& message) const {
  return absl::InvalidArgumentError(
      absl::StrCat(std::string(OpName(node.op)), " node '", node.name, "': ", message));
}

absl::Status InferContext::Annotate(const absl::Status& status) const {
  if (status.ok()) return status;
  return Error(std::string(status.message()));
}

const OpInfo& GetOpInfo(OpKind kind) { return kOps[static_cast<size_t>(kind)]; }

absl::StatusOr<std::vector<TensorType>> InferOutputTypes(const Node& node,
                                                         std::span<const TensorType> inputs) {
  InferContext ctx{node, inputs};
  for (size_t i = 0; i < inputs.size(); ++i) {
    absl::StatusOr<int64_t> n = inputs[i].NumElements();
    if (!n.ok()) return ctx.Error(absl::StrCat("input ", i, ": ", n.status().message()));
  }
  return GetOpInfo(node.op).infer(ctx);
}

}  // namespace tunefarm::graph
