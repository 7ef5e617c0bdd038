#include "compiler/script/parser.h"

#include <optional>
#include <utility>

#include "absl/strings/str_cat.h"
#include "compiler/script/lexer.h"

namespace tunefarm::script {
namespace {

using ast::ExprPtr;

// Limits that keep recursion (here, in the evaluator and in destructors) far from the stack's
// end: how deeply expressions may nest in the source, and how tall a tree may grow.
constexpr int kMaxNesting = 100;
constexpr int kMaxHeight = 1000;

template <typename Node>
ExprPtr Make(Pos pos, Node node) {
  auto e = std::make_shared<ast::Expr>(ast::Expr{pos, 1, std::move(node)});
  e->height = ast::HeightOf(e->node);
  return e;
}

// Recursive descent over Python's precedence: lambda < or < and < not < comparison < + - <
// * / // % < unary - + < call, index, attribute < atom. Each method returns the node or the
// first error.
class Parser {
 public:
  Parser(std::vector<Token> tokens, absl::string_view filename)
      : tokens_(std::move(tokens)), filename_(filename) {}

  absl::StatusOr<ast::Module> Run() {
    ast::Module module;
    while (Peek().kind != TokenKind::kEnd) {
      if (Peek().kind == TokenKind::kNewline || Peek().IsOp(";")) {
        Next();
        continue;
      }
      if (Peek().IsKeyword("import") || Peek().IsKeyword("from")) {
        while (Peek().kind != TokenKind::kNewline && Peek().kind != TokenKind::kEnd) Next();
        continue;
      }
      absl::StatusOr<ast::Stmt> stmt = Statement();
      if (!stmt.ok()) return stmt.status();
      module.body.push_back(*std::move(stmt));
    }
    module.end = Peek().pos;
    return module;
  }

 private:
  absl::StatusOr<ast::Stmt> Statement() {
    Pos pos = Peek().pos;
    bool lhs_is_tuple = false;
    absl::StatusOr<ExprPtr> lhs = ExprList(&lhs_is_tuple);
    if (!lhs.ok()) return lhs.status();
    ast::Stmt stmt{pos, ast::ExprStatement{*lhs}};
    if (Peek().IsOp("=")) {
      Next();
      ast::Assign assign;
      assign.unpack = lhs_is_tuple;
      if (absl::Status st = AssignTargets(*lhs, lhs_is_tuple, &assign); !st.ok()) return st;
      absl::StatusOr<ExprPtr> value = ExprList(nullptr);
      if (!value.ok()) return value.status();
      assign.value = *value;
      stmt.node = std::move(assign);
    }
    if (Peek().kind != TokenKind::kNewline && !Peek().IsOp(";")) {
      return Expected("end of line");
    }
    Next();
    return stmt;
  }

  absl::Status AssignTargets(const ExprPtr& lhs, bool is_tuple, ast::Assign* assign) {
    std::vector<ExprPtr> targets = {lhs};
    if (is_tuple) targets = std::get<ast::Sequence>(lhs->node).items;
    for (const ExprPtr& target : targets) {
      const auto* name = std::get_if<ast::Name>(&target->node);
      if (!name) return ErrorAt(filename_, target->pos, "can only assign to a name");
      assign->targets.push_back(name->id);
      assign->target_pos.push_back(target->pos);
    }
    return absl::OkStatus();
  }

  // expr {, expr} [,]: a tuple when a comma appears. Used where Python allows a bare tuple.
  absl::StatusOr<ExprPtr> ExprList(bool* is_tuple) {
    Pos pos = Peek().pos;
    absl::StatusOr<ExprPtr> first = Expression();
    if (!first.ok() || !Peek().IsOp(",")) return first;
    std::vector<ExprPtr> items = {*first};
    while (Peek().IsOp(",")) {
      Next();
      if (!StartsExpression(Peek())) break;
      absl::StatusOr<ExprPtr> item = Expression();
      if (!item.ok()) return item.status();
      items.push_back(*item);
    }
    if (is_tuple) *is_tuple = true;
    return Make(pos, ast::Sequence{true, std::move(items)});
  }

  absl::StatusOr<ExprPtr> Expression() {
    Pos pos = Peek().pos;
    if (nesting_ >= kMaxNesting) return TooDeep(pos);
    ++nesting_;
    absl::StatusOr<ExprPtr> e = Peek().IsKeyword("lambda") ? LambdaExpr() : BinaryLevel(0);
    --nesting_;
    if (e.ok() && (*e)->height > kMaxHeight) return TooDeep(pos);
    return e;
  }

  absl::Status TooDeep(Pos pos) const {
    return ErrorAt(filename_, pos, "expression nested too deeply");
  }

  absl::StatusOr<ExprPtr> LambdaExpr() {
    Pos pos = Next().pos;
    std::vector<std::string> params;
    while (!Peek().IsOp(":")) {
      if (Peek().kind != TokenKind::kName) return Expected("a parameter name or ':'");
      params.push_back(Next().text);
      if (Peek().IsOp(",")) {
        Next();
      } else if (!Peek().IsOp(":")) {
        return Expected("',' or ':'");
      }
    }
    Next();
    absl::StatusOr<ExprPtr> body = Expression();
    if (!body.ok()) return body.status();
    return Make(pos, ast::Lambda{std::move(params), *body});
  }

  // Binary operator levels, loosest first; `not` sits between `and` and the comparisons.
  absl::StatusOr<ExprPtr> BinaryLevel(int level) {
    if (level == 2) return NotLevel();
    if (level == 6) return UnaryLevel();
    absl::StatusOr<ExprPtr> lhs = BinaryLevel(level + 1);
    if (!lhs.ok()) return lhs;
    ExprPtr result = *lhs;
    std::optional<ExprPtr> chain_left;  // for a < b < c: the last right operand
    while (std::optional<ast::BinaryOp> op = OperatorAt(level)) {
      Pos pos = Next().pos;
      absl::StatusOr<ExprPtr> rhs = BinaryLevel(level + 1);
      if (!rhs.ok()) return rhs;
      if (level == 3 && chain_left) {
        // Python's chained comparison a < b < c means a < b and b < c.
        ExprPtr next = Make(pos, ast::Binary{*op, *chain_left, *rhs});
        result = Make(pos, ast::Binary{ast::BinaryOp::kAnd, result, next});
      } else {
        result = Make(pos, ast::Binary{*op, result, *rhs});
      }
      if (result->height > kMaxHeight) return TooDeep(pos);
      chain_left = *rhs;
    }
    return result;
  }

  std::optional<ast::BinaryOp> OperatorAt(int level) const {
    using Op = ast::BinaryOp;
    const Token& t = Peek();
    switch (level) {
      case 0:
        return t.IsKeyword("or") ? std::optional(Op::kOr) : std::nullopt;
      case 1:
        return t.IsKeyword("and") ? std::optional(Op::kAnd) : std::nullopt;
      case 3:
        if (t.IsOp("<")) return Op::kLt;
        if (t.IsOp("<=")) return Op::kLe;
        if (t.IsOp(">")) return Op::kGt;
        if (t.IsOp(">=")) return Op::kGe;
        if (t.IsOp("==")) return Op::kEq;
        if (t.IsOp("!=")) return Op::kNe;
        return std::nullopt;
      case 4:
        if (t.IsOp("+")) return Op::kAdd;
        if (t.IsOp("-")) return Op::kSub;
        return std::nullopt;
      case 5:
        if (t.IsOp("*")) return Op::kMul;
        if (t.IsOp("/")) return Op::kDiv;
        if (t.IsOp("//")) return Op::kFloorDiv;
        if (t.IsOp("%")) return Op::kMod;
        return std::nullopt;
      default:
        return std::nullopt;
    }
  }

  absl::StatusOr<ExprPtr> NotLevel() {
    if (!Peek().IsKeyword("not")) return BinaryLevel(3);
    Pos pos = Next().pos;
    if (++unary_run_ > kMaxNesting) return TooDeep(pos);
    absl::StatusOr<ExprPtr> operand = NotLevel();
    unary_run_ = 0;
    if (!operand.ok()) return operand;
    return Make(pos, ast::Unary{ast::UnaryOp::kNot, *operand});
  }

  absl::StatusOr<ExprPtr> UnaryLevel() {
    if (!Peek().IsOp("-") && !Peek().IsOp("+")) return Postfix();
    const Token& op = Next();
    if (++unary_run_ > kMaxNesting) return TooDeep(op.pos);
    absl::StatusOr<ExprPtr> operand = UnaryLevel();
    unary_run_ = 0;
    if (!operand.ok()) return operand;
    ast::UnaryOp kind = op.text == "-" ? ast::UnaryOp::kNeg : ast::UnaryOp::kPlus;
    return Make(op.pos, ast::Unary{kind, *operand});
  }

  absl::StatusOr<ExprPtr> Postfix() {
    absl::StatusOr<ExprPtr> result = Atom();
    if (!result.ok()) return result;
    ExprPtr expr = *result;
    while (true) {
      if (Peek().IsOp("(")) {
        Next();
        absl::StatusOr<std::vector<ast::Argument>> args = Arguments();
        if (!args.ok()) return args.status();
        expr = Make(expr->pos, ast::Call{expr, *std::move(args)});
      } else if (Peek().IsOp("[")) {
        Next();
        absl::StatusOr<std::vector<ExprPtr>> indices = Items("]", "an index");
        if (!indices.ok()) return indices.status();
        if (indices->empty()) return ErrorAt(filename_, expr->pos, "empty index []");
        expr = Make(expr->pos, ast::Index{expr, *std::move(indices)});
      } else if (Peek().IsOp(".")) {
        Next();
        if (Peek().kind != TokenKind::kName) return Expected("an attribute name after '.'");
        const Token& name = Next();
        expr = Make(name.pos, ast::Attribute{expr, name.text});
      } else {
        return expr;
      }
      if (expr->height > kMaxHeight) return TooDeep(expr->pos);
    }
  }

  // After '(': arguments up to ')'. Keyword arguments follow the positional ones.
  absl::StatusOr<std::vector<ast::Argument>> Arguments() {
    std::vector<ast::Argument> args;
    while (!Peek().IsOp(")")) {
      ast::Argument arg;
      arg.pos = Peek().pos;
      if (Peek().kind == TokenKind::kName && PeekAt(1).IsOp("=")) {
        arg.keyword = Next().text;
        Next();
      } else if (!args.empty() && !args.back().keyword.empty()) {
        return ErrorAt(filename_, arg.pos, "positional argument follows keyword argument");
      }
      absl::StatusOr<ExprPtr> value = Expression();
      if (!value.ok()) return value.status();
      arg.value = *value;
      args.push_back(std::move(arg));
      if (Peek().IsOp(",")) {
        Next();
      } else if (!Peek().IsOp(")")) {
        return Expected("',' or ')' in the argument list");
      }
    }
    Next();
    return args;
  }

  // Comma-separated expressions up to `close` (consumed); a trailing comma is allowed.
  absl::StatusOr<std::vector<ExprPtr>> Items(absl::string_view close, absl::string_view what,
                                             bool* saw_comma = nullptr) {
    std::vector<ExprPtr> items;
    while (!Peek().IsOp(close)) {
      if (!StartsExpression(Peek())) return Expected(what);
      absl::StatusOr<ExprPtr> item = Expression();
      if (!item.ok()) return item.status();
      items.push_back(*item);
      if (Peek().IsOp(",")) {
        Next();
        if (saw_comma) *saw_comma = true;
      } else if (!Peek().IsOp(close)) {
        return Expected(absl::StrCat("',' or '", close, "'"));
      }
    }
    Next();
    return items;
  }

  absl::StatusOr<ExprPtr> Atom() {
    const Token& t = Peek();
    switch (t.kind) {
      case TokenKind::kName:
        return Make(Next().pos, ast::Name{t.text});
      case TokenKind::kInt:
        return Make(Next().pos, ast::IntLiteral{t.int_value});
      case TokenKind::kFloat:
        return Make(Next().pos, ast::FloatLiteral{t.float_value});
      case TokenKind::kString:
        return Make(Next().pos, ast::StringLiteral{t.text});
      default:
        break;
    }
    if (t.IsKeyword("True") || t.IsKeyword("False")) {
      return Make(Next().pos, ast::BoolLiteral{t.text == "True"});
    }
    if (t.IsKeyword("None")) return Make(Next().pos, ast::NoneLiteral{});
    if (t.IsOp("(") || t.IsOp("[")) {
      Pos pos = Next().pos;
      bool is_tuple = t.text == "(";
      bool saw_comma = false;
      absl::StatusOr<std::vector<ExprPtr>> items =
          Items(is_tuple ? ")" : "]", "an expression", &saw_comma);
      if (!items.ok()) return items.status();
      // (x) is x itself; (x,) and () are tuples.
      if (is_tuple && items->size() == 1 && !saw_comma) return items->front();
      return Make(pos, ast::Sequence{is_tuple, *std::move(items)});
    }
    return Expected("an expression");
  }

  static bool StartsExpression(const Token& t) {
    switch (t.kind) {
      case TokenKind::kName:
      case TokenKind::kInt:
      case TokenKind::kFloat:
      case TokenKind::kString:
        return true;
      case TokenKind::kKeyword:
        return t.text == "lambda" || t.text == "not" || t.text == "True" || t.text == "False" ||
               t.text == "None";
      case TokenKind::kOp:
        return t.text == "(" || t.text == "[" || t.text == "-" || t.text == "+";
      default:
        return false;
    }
  }

  absl::Status Expected(absl::string_view what) const {
    return ErrorAt(filename_, Peek().pos,
                   absl::StrCat("expected ", what, ", got ", Describe(Peek())));
  }

  const Token& Peek() const { return tokens_[pos_]; }
  const Token& PeekAt(size_t ahead) const {
    return tokens_[std::min(pos_ + ahead, tokens_.size() - 1)];
  }
  const Token& Next() {
    const Token& t = tokens_[pos_];
    if (pos_ + 1 < tokens_.size()) ++pos_;
    return t;
  }

  std::vector<Token> tokens_;
  absl::string_view filename_;
  size_t pos_ = 0;
  int nesting_ = 0;    // open Expression() calls
  int unary_run_ = 0;  // prefix operators (- + not) in a row
};

}  // namespace

absl::StatusOr<ast::Module> Parse(absl::string_view source, absl::string_view filename) {
  absl::StatusOr<std::vector<Token>> tokens = Lex(source, filename);
  if (!tokens.ok()) return tokens.status();
  return Parser(*std::move(tokens), filename).Run();
}

}  // namespace tunefarm::script
