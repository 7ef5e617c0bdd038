// The op registry: for every graph op, its name, its pattern kind (what fusion may do with it) and
// its type inference. One table, expanded from op_list.h.
#pragma once

#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "compiler/graph/node.h"
#include "compiler/graph/op_kind.h"
#include "compiler/graph/tensor_type.h"

namespace tunefarm::graph {

// How an op's outputs depend on its inputs, from the simplest to fuse to the hardest. Fusion may
// put ops of the lower kinds into the epilogue of an op of a higher one.
enum class PatternKind : uint8_t {
  kElementwise,      // out[i] = f(in[i]), same shape
  kBroadcast,        // out[i] = f(in_k[broadcast(i)]): the operands' index maps are projections
  kInjective,        // each output element reads one input element (reshape, transpose, slice)
  kCommReduce,       // a commutative reduction over some axes
  kOutEWiseFusable,  // complex (conv2d, gemm, pool), but an elementwise epilogue fuses into it
  kOpaque,           // fused with nothing (softmax: two reductions and a normalization)
};

std::string_view PatternKindName(PatternKind kind);

// What an inference function sees: the node (for its attributes and name) and its input types.
struct InferContext {
  const Node& node;
  std::span<const TensorType> inputs;

  // InvalidArgument "conv2d node 'conv1': <message>", the message every inference error carries.
  absl::Status Error(const std::string& message) const;
  // `status` with the node named in front of its message, when it is not ok.
  absl::Status Annotate(const absl::Status& status) const;
};

using InferFn = absl::StatusOr<std::vector<TensorType>> (*)(const InferContext&);

struct OpInfo {
  OpKind kind;
  std::string_view name;
  PatternKind pattern;
  InferFn infer;
};

const OpInfo& GetOpInfo(OpKind kind);

// The types of `node`'s outputs given the types of its inputs (in order). An error names the
// node and says what is wrong: a wrong input count, an attribute out of range, shapes that do
// not agree.
absl::StatusOr<std::vector<TensorType>> InferOutputTypes(const Node& node,
                                                         std::span<const TensorType> inputs);

}  // namespace tunefarm::graph
