#include "compiler/script/ast.h"

#include <algorithm>

namespace tunefarm::script::ast {

const char* BinaryOpSpelling(BinaryOp op) {
  static constexpr const char* kSpellings[] = {"+",  "-", "*",  "/",  "//", "%",   "<",
                                               "<=", ">", ">=", "==", "!=", "and", "or"};
  return kSpellings[static_cast<int>(op)];
}

int HeightOf(const ExprVariant& node) {
  int h = 0;
  auto take = [&](const ExprPtr& e) { h = std::max(h, e->height); };
  std::visit(
      [&](const auto& n) {
        using T = std::decay_t<decltype(n)>;
        if constexpr (std::is_same_v<T, ast::Sequence>) {
          for (const ExprPtr& item : n.items) take(item);
        } else if constexpr (std::is_same_v<T, ast::Call>) {
          take(n.callee);
          for (const ast::Argument& arg : n.args) take(arg.value);
        } else if constexpr (std::is_same_v<T, ast::Index>) {
          take(n.target);
          for (const ExprPtr& index : n.indices) take(index);
        } else if constexpr (std::is_same_v<T, ast::Attribute>) {
          take(n.target);
        } else if constexpr (std::is_same_v<T, ast::Binary>) {
          take(n.lhs);
          take(n.rhs);
        } else if constexpr (std::is_same_v<T, ast::Unary>) {
          take(n.operand);
        } else if constexpr (std::is_same_v<T, ast::Lambda>) {
          take(n.body);
        }
      },
      node);
  return h + 1;
}

}  // namespace tunefarm::script::ast
