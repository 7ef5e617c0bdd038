#include "compiler/script/parser.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"

namespace tunefarm::script {
namespace {

using ::testing::HasSubstr;

// Renders a tree as an s-expression, so a test states the whole shape in one line.
std::string Show(const ast::ExprPtr& e) {
  return std::visit(
      [](const auto& n) -> std::string {
        using T = std::decay_t<decltype(n)>;
        if constexpr (std::is_same_v<T, ast::Name>) return n.id;
        if constexpr (std::is_same_v<T, ast::IntLiteral>) return absl::StrCat(n.value);
        if constexpr (std::is_same_v<T, ast::FloatLiteral>) return absl::StrCat(n.value, "f");
        if constexpr (std::is_same_v<T, ast::StringLiteral>) return absl::StrCat("'", n.value, "'");
        if constexpr (std::is_same_v<T, ast::BoolLiteral>) return n.value ? "True" : "False";
        if constexpr (std::is_same_v<T, ast::NoneLiteral>) return "None";
        if constexpr (std::is_same_v<T, ast::Sequence>) {
          std::vector<std::string> items;
          for (const auto& i : n.items) items.push_back(Show(i));
          return absl::StrCat(n.is_tuple ? "(tuple " : "(list ", absl::StrJoin(items, " "), ")");
        }
        if constexpr (std::is_same_v<T, ast::Call>) {
          std::string out = absl::StrCat("(call ", Show(n.callee));
          for (const auto& a : n.args) {
            absl::StrAppend(&out, " ", a.keyword.empty() ? "" : a.keyword + "=", Show(a.value));
          }
          return out + ")";
        }
        if constexpr (std::is_same_v<T, ast::Index>) {
          std::vector<std::string> items;
          for (const auto& i : n.indices) items.push_back(Show(i));
          return absl::StrCat("(index ", Show(n.target), " ", absl::StrJoin(items, " "), ")");
        }
        if constexpr (std::is_same_v<T, ast::Attribute>) {
          return absl::StrCat("(. ", Show(n.target), " ", n.name, ")");
        }
        if constexpr (std::is_same_v<T, ast::Binary>) {
          return absl::StrCat("(", ast::BinaryOpSpelling(n.op), " ", Show(n.lhs), " ", Show(n.rhs),
                              ")");
        }
        if constexpr (std::is_same_v<T, ast::Unary>) {
          const char* op = n.op == ast::UnaryOp::kNeg   ? "neg"
                           : n.op == ast::UnaryOp::kNot ? "not"
                                                        : "pos";
          return absl::StrCat("(", op, " ", Show(n.operand), ")");
        }
        if constexpr (std::is_same_v<T, ast::Lambda>) {
          return absl::StrCat("(lambda (", absl::StrJoin(n.params, " "), ") ", Show(n.body), ")");
        }
        return "?";
      },
      e->node);
}

ast::Module ParseOk(absl::string_view source) {
  absl::StatusOr<ast::Module> m = Parse(source, "t.te");
  EXPECT_TRUE(m.ok()) << m.status();
  return m.ok() ? *std::move(m) : ast::Module{};
}

// The single expression statement (or assigned value) of `source`, rendered.
std::string ShowExpr(absl::string_view source) {
  ast::Module m = ParseOk(source);
  if (m.body.size() != 1) return "<" + std::to_string(m.body.size()) + " statements>";
  if (const auto* a = std::get_if<ast::Assign>(&m.body[0].node)) return Show(a->value);
  return Show(std::get<ast::ExprStatement>(m.body[0].node).expr);
}

std::string ParseError(absl::string_view source) {
  absl::StatusOr<ast::Module> m = Parse(source, "t.te");
  EXPECT_FALSE(m.ok()) << source;
  if (m.ok()) return "";
  EXPECT_EQ(m.status().code(), absl::StatusCode::kInvalidArgument);
  return std::string(m.status().message());
}

TEST(ParserTest, Precedence) {
  EXPECT_EQ(ShowExpr("a + b * c - d"), "(- (+ a (* b c)) d)");
  EXPECT_EQ(ShowExpr("(a + b) // c % d"), "(% (// (+ a b) c) d)");
  EXPECT_EQ(ShowExpr("-a * b"), "(* (neg a) b)");
  EXPECT_EQ(ShowExpr("a < b and not c or d"), "(or (and (< a b) (not c)) d)");
  EXPECT_EQ(ShowExpr("a / b == c"), "(== (/ a b) c)");
}

TEST(ParserTest, ChainedComparisonIsAConjunction) {
  EXPECT_EQ(ShowExpr("0 <= i < n"), "(and (<= 0 i) (< i n))");
}

TEST(ParserTest, CallsWithPositionalAndKeywordArguments) {
  EXPECT_EQ(ShowExpr("placeholder((n, m), dtype=\"int8\", name=\"A\")"),
            "(call placeholder (tuple n m) dtype='int8' name='A')");
  EXPECT_EQ(ShowExpr("f()"), "(call f)");
  EXPECT_EQ(ShowExpr("f(a,)"), "(call f a)");
}

TEST(ParserTest, LambdaIndexAttributeAndMethodCalls) {
  EXPECT_EQ(ShowExpr("compute((n,), lambda i, j: A[i, k] * 2, name=\"C\")"),
            "(call compute (tuple n) (lambda (i j) (* (index A i k) 2)) name='C')");
  EXPECT_EQ(ShowExpr("s[C].split(C.op.axis[0], factor=4)"),
            "(call (. (index s C) split) (index (. (. C op) axis) 0) factor=4)");
  EXPECT_EQ(ShowExpr("lambda: 1"), "(lambda () 1)");
}

TEST(ParserTest, TuplesListsAndLiterals) {
  EXPECT_EQ(ShowExpr("(1,)"), "(tuple 1)");
  EXPECT_EQ(ShowExpr("()"), "(tuple )");
  EXPECT_EQ(ShowExpr("[1, 2.5, 'x', True, False, None]"), "(list 1 2.5f 'x' True False None)");
  EXPECT_EQ(ShowExpr("x = 1, 2"), "(tuple 1 2)");
  EXPECT_EQ(ShowExpr("(a)"), "a");
}

TEST(ParserTest, AssignmentsAndTupleUnpacking) {
  ast::Module m = ParseOk("xo, yo, xi, yi = s[C].tile(a, b, x_factor=8, y_factor=8)\nz = 1\n");
  ASSERT_EQ(m.body.size(), 2u);
  const auto& unpack = std::get<ast::Assign>(m.body[0].node);
  EXPECT_TRUE(unpack.unpack);
  EXPECT_EQ(unpack.targets, (std::vector<std::string>{"xo", "yo", "xi", "yi"}));
  const auto& plain = std::get<ast::Assign>(m.body[1].node);
  EXPECT_FALSE(plain.unpack);
  EXPECT_EQ(plain.targets, std::vector<std::string>{"z"});
  EXPECT_EQ(m.body[1].pos.line, 2);
}

TEST(ParserTest, ImportLinesAreIgnored) {
  ast::Module m = ParseOk("import tvm\nfrom tvm import te\nimport numpy as np\nx = 1\n");
  EXPECT_EQ(m.body.size(), 1u);
}

TEST(ParserTest, StatementsMaySpanLinesInsideBrackets) {
  EXPECT_EQ(ShowExpr("f(\n  a,\n  b=1,\n)"), "(call f a b=1)");
}

TEST(ParserTest, PositionsOfNodes) {
  ast::Module m = ParseOk("x = s[C].split(a)\n");
  const auto& value = std::get<ast::Assign>(m.body[0].node).value;
  EXPECT_EQ(value->pos.column, 10);  // the call is at `split`
}

TEST(ParserTest, SyntaxErrorsSayWhatWasExpected) {
  EXPECT_THAT(ParseError("x = f(a b)"),
              HasSubstr("t.te:1:9: expected ',' or ')' in the argument list, got 'b'"));
  EXPECT_THAT(ParseError("x = \n"), HasSubstr("t.te:1:5: expected an expression, got end of line"));
  EXPECT_THAT(ParseError("x = (1 + )"), HasSubstr("t.te:1:10: expected an expression, got ')'"));
  EXPECT_THAT(ParseError("f(x) = 1"), HasSubstr("t.te:1:1: can only assign to a name"));
  EXPECT_THAT(ParseError("f(a=1, 2)"), HasSubstr("t.te:1:8: positional argument follows keyword"));
  EXPECT_THAT(ParseError("x = 1 2"), HasSubstr("t.te:1:7: expected end of line, got '2'"));
  EXPECT_THAT(ParseError("x = a.(b)"), HasSubstr("t.te:1:7: expected an attribute name"));
  EXPECT_THAT(ParseError("f = lambda 1: 2"), HasSubstr("t.te:1:12: expected a parameter name"));
  EXPECT_THAT(ParseError("x = A[]"), HasSubstr("t.te:1:5: empty index []"));
  EXPECT_THAT(ParseError("x = a ** 2"), HasSubstr("t.te:1:7: expected end of line, got '**'"));
}

TEST(ParserTest, PathologicalNestingIsAnErrorNotACrash) {
  auto repeat = [](const std::string& s, int n) {
    std::string out;
    for (int i = 0; i < n; ++i) out += s;
    return out;
  };
  EXPECT_THAT(ParseError("x = " + repeat("(", 100) + "1" + repeat(")", 100)),
              HasSubstr("brackets nested too deeply"));
  EXPECT_THAT(ParseError("x = " + repeat("1 + ", 5000) + "1"),
              HasSubstr("expression nested too deeply"));
  EXPECT_THAT(ParseError("x = " + repeat("- ", 500) + "1"),
              HasSubstr("expression nested too deeply"));
  EXPECT_THAT(ParseError("x = " + repeat("not ", 500) + "1"),
              HasSubstr("expression nested too deeply"));
  EXPECT_THAT(ParseError("x = " + repeat("lambda: ", 500) + "1"),
              HasSubstr("expression nested too deeply"));
  EXPECT_THAT(ParseError("x = a" + repeat(".b", 2000)), HasSubstr("expression nested too deeply"));
  // Long but reasonable expressions are fine.
  ParseOk("x = " + repeat("1 + ", 900) + "1");
}

}  // namespace
}  // namespace tunefarm::script
