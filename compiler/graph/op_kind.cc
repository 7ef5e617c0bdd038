#include "compiler/graph/op_kind.h"

#include <array>

namespace tunefarm::graph {
namespace {

constexpr std::array<std::string_view, 0
#define TF_COUNT_OP(Name, text, pattern) +1
                     TF_GRAPH_OPS(TF_COUNT_OP)
#undef TF_COUNT_OP
                     >
    kOpNames = {
#define TF_OP_NAME(Name, text, pattern) text,
        TF_GRAPH_OPS(TF_OP_NAME)
#undef TF_OP_NAME
};

}  // namespace

std::string_view OpName(OpKind kind) { return kOpNames[static_cast<size_t>(kind)]; }

std::optional<OpKind> FindOpKind(std::string_view name) {
  for (size_t i = 0; i < kOpNames.size(); ++i) {
    if (kOpNames[i] == name) return static_cast<OpKind>(i);
  }
  return std::nullopt;
}

}  // namespace tunefarm::graph
