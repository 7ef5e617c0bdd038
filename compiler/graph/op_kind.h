// OpKind: which op a graph node applies, one enumerator per line of op_list.h.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

#include "compiler/graph/op_list.h"

namespace tunefarm::graph {

enum class OpKind : uint8_t {
#define TF_DECLARE_OP_KIND(Name, text, pattern) k##Name,
  TF_GRAPH_OPS(TF_DECLARE_OP_KIND)
#undef TF_DECLARE_OP_KIND
};

// The op's name in printed graphs ("conv2d").
std::string_view OpName(OpKind kind);

// The kind printed as `name`, or nullopt.
std::optional<OpKind> FindOpKind(std::string_view name);

}  // namespace tunefarm::graph
