// Syntax tree of a TE script: the statements and expressions the parser builds and the evaluator
// walks. Every node keeps the position of the token that best names it in an error message.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <variant>
#include <vector>

#include "compiler/script/token.h"

namespace tunefarm::script::ast {

struct Expr;
// Shared, so a lambda value can keep its body alive after the tree that held it is gone.
using ExprPtr = std::shared_ptr<const Expr>;

struct Name {
  std::string id;
};
struct IntLiteral {
  int64_t value;
};
struct FloatLiteral {
  double value;
};
struct StringLiteral {
  std::string value;
};
struct BoolLiteral {
  bool value;
};
struct NoneLiteral {};

// `(a, b)` or `[a, b]`.
struct Sequence {
  bool is_tuple;
  std::vector<ExprPtr> items;
};

// One argument of a call: positional when `keyword` is empty.
struct Argument {
  std::string keyword;
  ExprPtr value;
  Pos pos;
};

// `callee(args...)`; the node's position is the callee's (for `s[C].split(...)`, of `split`).
struct Call {
  ExprPtr callee;
  std::vector<Argument> args;
};

// `target[i, j]`; several indices are kept apart (not folded into one tuple).
struct Index {
  ExprPtr target;
  std::vector<ExprPtr> indices;
};

// `target.name`; the node's position is that of `name`.
struct Attribute {
  ExprPtr target;
  std::string name;
};

enum class BinaryOp : uint8_t {
  kAdd,
  kSub,
  kMul,
  kDiv,
  kFloorDiv,
  kMod,
  kLt,
  kLe,
  kGt,
  kGe,
  kEq,
  kNe,
  kAnd,
  kOr,  // short-circuit on plain values, `&&` / `||` on expressions
};
const char* BinaryOpSpelling(BinaryOp op);

// The node's position is the operator's.
struct Binary {
  BinaryOp op;
  ExprPtr lhs;
  ExprPtr rhs;
};

enum class UnaryOp : uint8_t { kNeg, kPlus, kNot };

struct Unary {
  UnaryOp op;
  ExprPtr operand;
};

struct Lambda {
  std::vector<std::string> params;
  ExprPtr body;
};

using ExprVariant =
    std::variant<Name, IntLiteral, FloatLiteral, StringLiteral, BoolLiteral, NoneLiteral, Sequence,
                 Call, Index, Attribute, Binary, Unary, Lambda>;

// 1 + the largest height of the node's children (all of which are already built).
int HeightOf(const ExprVariant& node);

struct Expr {
  Pos pos;
  // Height of the subtree (a leaf is 1). The parser bounds it, so that walking or destroying a
  // tree recursively cannot exhaust the stack.
  int height = 1;
  ExprVariant node;
};

// `x = value` or `a, b = value` (one name per target).
struct Assign {
  std::vector<std::string> targets;
  std::vector<Pos> target_pos;
  bool unpack;  // the targets were written as a tuple, even a one-element one (`a, = ...`)
  ExprPtr value;
};

// An expression evaluated for its effect, such as `s[C].reorder(...)`.
struct ExprStatement {
  ExprPtr expr;
};

struct Stmt {
  Pos pos;
  std::variant<Assign, ExprStatement> node;
};

struct Module {
  std::vector<Stmt> body;
  Pos end;  // the end of the source, for errors about what is missing
};

}  // namespace tunefarm::script::ast
